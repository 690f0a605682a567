use super::*;
use crate::steps::Steps;

/// A node of `count` children, numbered from 0, whose facts are their numbers; each batch
/// asked is logged.
struct Page {
    count: usize,
    log: Steps,
}

impl Batches for &Page {
    type Node = usize;
    type Batch = Vec<usize>;

    fn read(&self, after: Option<&usize>, facts: &mut [u32; BATCH]) -> Vec<usize> {
        self.log.say(format!("after {after:?}"));
        let first = after.map_or(0, |a| a + 1);
        let batch: Vec<usize> = (first..self.count).take(BATCH).collect();
        for (at, child) in batch.iter().enumerate() {
            facts[at] = *child as u32;
        }
        batch
    }
    fn len(&self, batch: &Vec<usize>) -> usize {
        batch.len()
    }
    fn get(&self, batch: &Vec<usize>, at: usize) -> usize {
        batch[at]
    }
}

fn children(count: usize) -> Page {
    Page {
        count,
        log: Steps::default(),
    }
}

#[test]
fn every_child_comes_with_its_facts_a_batch_at_a_time() {
    for count in [0, 1, 63, 64, 65, 128, 130] {
        let page = children(count);
        let read: Vec<(usize, Facts)> = Children::of(&page).collect();
        assert_eq!(read.len(), count);
        for (at, (child, facts)) in read.iter().enumerate() {
            assert_eq!((*child, *facts), (at, Facts::from_bits(at as u32)));
        }
        // A full batch costs one more question, which may find nothing.
        let asked = count / BATCH + 1;
        assert_eq!(page.log.all().len(), asked, "{count}: {:?}", page.log.all());
    }
}

#[test]
fn the_next_batch_starts_after_the_last_child_and_only_when_reached() {
    let page = children(200);
    let first: Vec<usize> = Children::of(&page).take(64).map(|(c, _)| c).collect();
    assert_eq!(first.len(), 64);
    assert_eq!(page.log.all(), ["after None"]);
    let page = children(200);
    assert_eq!(Children::of(&page).take(65).count(), 65);
    assert_eq!(page.log.all(), ["after None", "after Some(63)"]);
}

#[test]
fn tags_are_learnt_in_order_and_asked_once() {
    let learnt = RefCell::new(Vec::new());
    let asked = Steps::default();
    let reader = |n: u32| {
        asked.say(n.to_string());
        ["div", "span", "a"]
            .get(n as usize - 1)
            .map(|t| t.to_string())
    };
    assert_eq!(tag(&learnt, 2, reader).as_deref(), Some("span"));
    assert_eq!(tag(&learnt, 1, reader).as_deref(), Some("div"));
    assert_eq!(tag(&learnt, 3, reader).as_deref(), Some("a"));
    assert_eq!(tag(&learnt, 2, reader).as_deref(), Some("span"));
    assert_eq!(asked.all(), ["1", "2", "3"]);
    // A number the reader does not know is none, and asked again next time.
    assert_eq!(tag(&learnt, 5, reader), None);
    assert_eq!(asked.all(), ["1", "2", "3", "4"]);
}
