//! How the snapshot reads a node's children, decided apart from the page: in batches of
//! [`BATCH`] with their facts, each batch asked only when the walk reaches it (a walk cut
//! short reads no further), the next one after the last child of a full batch (`Children`,
//! over `Batches`, which `content/dom.rs` implements with the shim's `claudezillaChildren`);
//! and the tags the reader numbers, learnt in order and each asked once a page (`tag`).

use std::cell::RefCell;

use crate::snapshot::Facts;

/// Children read in one call at most.
pub const BATCH: usize = 64;

/// One node's children as the page gives them, a batch at a time.
pub trait Batches {
    type Node: Clone;
    type Batch;
    /// The children after `after` (from the first when `None`), at most [`BATCH`], each
    /// one's [`Facts`] written into `facts`.
    fn read(&self, after: Option<&Self::Node>, facts: &mut [u32; BATCH]) -> Self::Batch;
    fn len(&self, batch: &Self::Batch) -> usize;
    fn get(&self, batch: &Self::Batch, at: usize) -> Self::Node;
}

/// A node's children with their [`Facts`], read as the walk goes.
pub struct Children<B: Batches> {
    page: B,
    batch: B::Batch,
    facts: [u32; BATCH],
    got: usize,
    next: usize,
    /// The last child of the batch read, once the walk reached it.
    last: Option<B::Node>,
}

impl<B: Batches> Children<B> {
    /// The first batch, read at once.
    pub fn of(page: B) -> Self {
        let mut facts = [0; BATCH];
        let batch = page.read(None, &mut facts);
        Self {
            got: page.len(&batch),
            page,
            batch,
            facts,
            next: 0,
            last: None,
        }
    }
}

impl<B: Batches> Iterator for Children<B> {
    type Item = (B::Node, Facts);

    fn next(&mut self) -> Option<Self::Item> {
        if self.next == self.got {
            // A batch that was not full was the last.
            if self.got < BATCH {
                return None;
            }
            self.batch = self.page.read(self.last.as_ref(), &mut self.facts);
            self.got = self.page.len(&self.batch);
            self.next = 0;
            if self.got == 0 {
                return None;
            }
        }
        let node = self.page.get(&self.batch, self.next);
        let facts = Facts::from_bits(self.facts[self.next]);
        self.next += 1;
        if self.next == BATCH {
            self.last = Some(node.clone());
        }
        Some((node, facts))
    }
}

/// The tag the reader numbered `index` (numbers start at 1): from the tags already learnt,
/// else learnt through `ask` with every one before it not yet known. `None` where the reader
/// knows no such number.
pub fn tag(
    learnt: &RefCell<Vec<String>>,
    index: u32,
    mut ask: impl FnMut(u32) -> Option<String>,
) -> Option<String> {
    let at = index as usize - 1;
    if let Some(tag) = learnt.borrow().get(at).cloned() {
        return Some(tag);
    }
    // Asked with no borrow held: a call into JS may throw.
    let known = learnt.borrow().len();
    let new: Vec<String> = (known..=at).map_while(|i| ask(i as u32 + 1)).collect();
    let mut tags = learnt.borrow_mut();
    if tags.len() == known {
        tags.extend(new);
    }
    tags.get(at).cloned()
}

#[cfg(test)]
mod tests;
