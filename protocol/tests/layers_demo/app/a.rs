use super::b::Thing;
use super::shared; // a folder's own state: not an edge
