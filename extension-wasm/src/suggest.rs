//! "Did you mean": when a selector matches nothing, the closest selectors the page does have.

/// Up to `n` candidates closest to `wanted` (by edit distance, ties by order), never `wanted`.
pub fn closest(wanted: &str, candidates: &[String], n: usize) -> Vec<String> {
    let mut scored: Vec<(usize, usize, &String)> = candidates
        .iter()
        .enumerate()
        .filter(|(_, c)| c.as_str() != wanted)
        .map(|(i, c)| (distance(&wanted.to_lowercase(), &c.to_lowercase()), i, c))
        .collect();
    crate::sorting::sort_by(&mut scored, Ord::cmp);
    let mut out: Vec<String> = Vec::new();
    for (_, _, c) in scored {
        if !out.contains(c) {
            out.push(c.clone());
        }
        if out.len() == n {
            break;
        }
    }
    out
}

/// Levenshtein distance over characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_first() {
        let page: Vec<String> = [
            "#submit",
            "#cancel",
            ".btn-primary",
            "#submit-form",
            "button",
            "#email",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let got = closest("#sumbit", &page, 3);
        assert_eq!(got[0], "#submit");
        assert_eq!(got.len(), 3);
        assert!(closest("#submit", &page, 5).iter().all(|s| s != "#submit"));
        assert_eq!(distance("kitten", "sitting"), 3);
    }
}
