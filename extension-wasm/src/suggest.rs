//! "Did you mean": when a selector matches nothing, the closest selectors the page does have.

/// Up to `n` candidates closest to `wanted` (by edit distance, ties by order), never `wanted`.
pub fn closest(wanted: &str, candidates: &[String], n: usize) -> Vec<String> {
    let lower = wanted.to_lowercase();
    let mut scored: Vec<(usize, usize, &String)> = candidates
        .iter()
        .enumerate()
        .filter(|(_, c)| c.as_str() != wanted)
        .map(|(i, c)| (strsim::levenshtein(&lower, &c.to_lowercase()), i, c))
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
    }
}
