//! One stable sort for the lists the content module sorts. Each `sort_by` over a type of its
//! own instantiates the standard library's whole sort, about 7 KB of wasm, and the content
//! module is compiled in every agent document before its first answer: here those lists share
//! one sort, of indices, with the comparison behind a `dyn`. (The background's own sorts are
//! left as they are: its module is compiled once.)

use std::cmp::Ordering;

/// Sorts `items` by `compare`, keeping equal items in their order (as `slice::sort_by`).
pub fn sort_by<T>(items: &mut Vec<T>, compare: impl Fn(&T, &T) -> Ordering) {
    let order = order(items.len(), &|a, b| compare(&items[a], &items[b]));
    let mut slots: Vec<Option<T>> = std::mem::take(items).into_iter().map(Some).collect();
    items.extend(order.into_iter().filter_map(|i| slots[i].take()));
}

fn order(len: usize, compare: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| compare(a, b));
    order
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #[test]
        fn sorts_as_the_standard_stable_sort(items in prop::collection::vec((0u8..8, any::<u16>()), 0..60)) {
            // Keys repeat, so a sort that moved equal items would differ in the second field.
            let mut ours = items.clone();
            sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
            let mut std = items;
            std.sort_by_key(|a| a.0);
            prop_assert_eq!(ours, std);
        }
    }
}
