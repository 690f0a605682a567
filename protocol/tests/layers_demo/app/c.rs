pub struct Leaf;
