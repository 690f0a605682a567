use crate::app::{a, c};
// use super::c::Never; a comment names no module
