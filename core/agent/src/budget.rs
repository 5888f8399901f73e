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
        let Some(price) = price else {
            return Some(format!(
                "the budget of ${budget:.2} (run.max-cost) cannot be kept: {model} has no input price in the model catalog, so what its requests cost is not known; give it one in models.kdl, or unset run.max-cost"
            ));
        };
        let Some(spent) = run.cost else {
            return Some(format!(
                "the budget of ${budget:.2} (run.max-cost) cannot be kept: a response of this turn has no known cost (no usage, or a model without prices)"
            ));
        };
        let tokens = request.estimated_input_tokens();
        #[allow(clippy::cast_precision_loss)] // token counts are far below 2^52
        let next = tokens as f64 * price / 1_000_000.0;
        (spent + next > budget).then(|| {
            format!(
                "stopped at the budget of ${budget:.2} (run.max-cost): this turn has cost ${spent:.4}, and its next request to {model} (~{tokens} input tokens, ${next:.4} before any output) would pass it; raise run.max-cost or continue in a new turn"
            )
        })
    }
}
