//! The benchmark's rows: samples, medians and spreads over rounds, and the Markdown table.

/// One timed row: every sample of every round, each round's median, and a note.
pub(crate) struct Row {
    pub(crate) what: String,
    pub(crate) samples: Vec<f64>,
    pub(crate) round_medians: Vec<f64>,
    pub(crate) note: String,
}

impl Row {
    /// Median and p95 of every sample, and the lowest and highest round median.
    pub(crate) fn summary(&self) -> (f64, f64, f64, f64) {
        let (median, p95) = stats(self.samples.clone());
        let (low, high) = self
            .round_medians
            .iter()
            .fold((f64::MAX, 0.0f64), |(l, h), m| (l.min(*m), h.max(*m)));
        (median, p95, low, high)
    }
}

/// The table's rows in the order first measured; a row measured again (the next round) gathers
/// its samples with the earlier ones.
#[derive(Default)]
pub(crate) struct Rows(pub(crate) Vec<Row>);

impl Rows {
    pub(crate) fn add(&mut self, what: &str, samples: Vec<f64>, note: String) {
        let median = stats(samples.clone()).0;
        match self.0.iter_mut().find(|r| r.what == what) {
            Some(r) => {
                r.samples.extend(samples);
                r.round_medians.push(median);
                r.note = note;
            }
            None => self.0.push(Row {
                what: what.into(),
                samples,
                round_medians: vec![median],
                note,
            }),
        }
    }

    /// A row with a figure that is not a time (sizes, memory).
    pub(crate) fn fact(&mut self, what: &str, note: String) {
        self.add(what, Vec::new(), note);
    }
}

/// Where one tool's time goes, hop by hop (medians in ms; the MCP server's share is the MCP
/// call's median less the raw socket call's).
pub(crate) struct Breakdown {
    pub(crate) what: String,
    pub(crate) mcp_total: f64,
    pub(crate) hops: Vec<(&'static str, f64)>,
}

/// Median and p95 (zeros for no samples).
pub(crate) fn stats(mut samples: Vec<f64>) -> (f64, f64) {
    if samples.is_empty() {
        return (0.0, 0.0);
    }
    samples.sort_by(f64::total_cmp);
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.95))
}
