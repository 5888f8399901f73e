//! The run's cost budget (`RunLimits::max_cost`, the `run.max-cost` setting; the
//! hooks-and-budget issue): before each request the run stops with
//! [`smith::StopReason::Budget`] when what its responses cost so far, plus the request's
//! estimated input priced at the model's input price, would pass the budget. A response's
//! output is not known before it arrives and is never assumed (neither the output limit nor
//! any guess): one response may carry the run past the budget by its output's cost, and the
//! next request is then refused.

use smith::ProviderRequest;

use crate::run::{Agent, Run};

impl Agent<'_> {
    /// Why the next request, `request`, may not be sent, in words for the person (`None`: it
    /// may, or the run has no budget).
    pub(crate) fn over_budget(&self, run: &Run<'_>, request: &ProviderRequest) -> Option<String> {
        let budget = self.limits.max_cost?;
        let (model, price) = match self.dispatcher {
            crate::dispatch::Dispatcher::Routed(route) => {
                let first = route.candidates().first()?;
                let price = first
                    .capabilities
                    .as_ref()
                    .and_then(|c| c.price)
                    .and_then(|p| p.input);
                (first.model.to_string(), price)
            }
            crate::dispatch::Dispatcher::Direct(_) => {
                ("the provider given directly".to_owned(), None)
            }
        };
        let shown = dollars(budget);
        let Some(price) = price else {
            return Some(format!(
                "the budget of ${shown} (run.max-cost) cannot be kept: {model} has no input price in the model catalog, so what its requests cost is not known; give it one in models.kdl, or remove run.max-cost from your configuration"
            ));
        };
        let Some(spent) = run.cost else {
            return Some(format!(
                "the budget of ${shown} (run.max-cost) cannot be kept: what a response of this turn cost is unknown — the provider did not report one of its token counts (input, output, cache reads, cache writes), or the catalog has no price for one it did report; give {model} every price in models.kdl (a known zero counts), or remove run.max-cost from your configuration"
            ));
        };
        let tokens = request.estimated_input_tokens();
        #[allow(clippy::cast_precision_loss)] // token counts are far below 2^52
        let next = tokens as f64 * price / 1_000_000.0;
        if spent >= budget {
            return Some(format!(
                "stopped at the budget of ${shown} (run.max-cost): this turn has already cost ${}, so its next request to {model} is not sent; raise run.max-cost, or go on with a new prompt (each has a budget of its own)",
                dollars(spent)
            ));
        }
        (spent + next > budget).then(|| {
            format!(
                "stopped at the budget of ${shown} (run.max-cost): this turn has cost ${}, and its next request to {model} (~{tokens} input tokens, ${} before any output) would pass it; raise run.max-cost, or go on with a new prompt (each has a budget of its own)",
                dollars(spent),
                dollars(next)
            )
        })
    }

    /// What to say when the response just recorded took the run past its budget (its output
    /// was not known in advance), once per run: `None` when it did not.
    pub(crate) fn passed_budget(&self, before: Option<f64>, after: Option<f64>) -> Option<String> {
        let budget = self.limits.max_cost?;
        let (before, after) = (before?, after?);
        (before <= budget && after > budget).then(|| {
            format!(
                "this turn has cost ${}, past its budget of ${} (run.max-cost): the last response's output, which is not known before it arrives, took it over; no further request of this turn is sent",
                dollars(after),
                dollars(budget)
            )
        })
    }
}

/// An amount of dollars as the notices show it: cents, or as many decimals as a smaller
/// amount needs (up to six), trailing zeros dropped past the cents.
fn dollars(amount: f64) -> String {
    if !amount.is_finite() {
        return "(too large to show)".to_owned();
    }
    let mut text = format!("{amount:.6}");
    while text.ends_with('0') && text.len() - text.find('.').unwrap_or(text.len()) > 3 {
        text.pop();
    }
    text
}

#[cfg(test)]
mod tests {
    #[test]
    fn dollars_keep_cents_and_the_digits_a_small_amount_needs() {
        assert_eq!(super::dollars(0.5), "0.50");
        assert_eq!(super::dollars(100.001), "100.001");
        assert_eq!(super::dollars(0.000_000_1), "0.00");
        assert_eq!(super::dollars(0.000_025), "0.000025");
        assert_eq!(super::dollars(24.0), "24.00");
        assert_eq!(super::dollars(f64::INFINITY), "(too large to show)");
    }
}
