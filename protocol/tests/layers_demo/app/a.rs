// A group inside a group: the reader follows `b` past the inner one's brace.
use crate::app::{c::{Leaf}, b::Thing};
