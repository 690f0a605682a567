//! The tests' record of what a flow asked of its fake, in order: one line a step.

use std::cell::RefCell;

#[derive(Default)]
pub struct Steps(RefCell<Vec<String>>);

impl Steps {
    pub fn say(&self, step: impl Into<String>) {
        self.0.borrow_mut().push(step.into());
    }

    pub fn all(&self) -> Vec<String> {
        self.0.borrow().clone()
    }
}
