package llm

import "strings"

// ThinkingMode says which forms of the thinking field a model takes.
type ThinkingMode int

const (
	// ThinkingBudget models take {"type":"enabled","budget_tokens":N} and
	// {"type":"disabled"}, and refuse {"type":"adaptive"} (Claude 4.5
	// and older).
	ThinkingBudget ThinkingMode = iota
	// ThinkingAdaptive models take every form; adaptive is the one to
	// send (budgets are deprecated on them: Opus and Sonnet 4.6).
	ThinkingAdaptive
	// ThinkingAdaptiveOnly models answer 400 to "enabled" and to
	// "disabled": thinking is adaptive or the field is left out (Opus
	// 4.7 and later, the Claude 5 models).
	ThinkingAdaptiveOnly
)

// thinkingByPrefix gives the thinking mode of model ids by prefix; ids
// not listed take budgets only.
var thinkingByPrefix = []struct {
	prefix string
	mode   ThinkingMode
}{
	{"claude-opus-5", ThinkingAdaptiveOnly},
	{"claude-sonnet-5", ThinkingAdaptiveOnly},
	{"claude-haiku-5", ThinkingAdaptiveOnly},
	{"claude-mythos", ThinkingAdaptiveOnly},
	{"claude-fable", ThinkingAdaptiveOnly},
	{"claude-opus-4-8", ThinkingAdaptiveOnly},
	{"claude-opus-4-7", ThinkingAdaptiveOnly},
	{"claude-opus-4-6", ThinkingAdaptive},
	{"claude-sonnet-4-6", ThinkingAdaptive},
}

// ThinkingMode returns the forms of thinking the model takes, judged by
// its id (a provider prefix such as "us.anthropic." and a "[1m]" suffix
// are ignored).
func (m ModelInfo) ThinkingMode() ThinkingMode {
	id := strings.ToLower(m.ID)
	if i := strings.Index(id, "claude-"); i > 0 {
		id = id[i:]
	}
	if i := strings.IndexByte(id, '['); i > 0 {
		id = id[:i]
	}
	for _, e := range thinkingByPrefix {
		if id == e.prefix || strings.HasPrefix(id, e.prefix+"-") {
			return e.mode
		}
	}
	return ThinkingBudget
}

// MinThinkingBudget is the smallest budget_tokens the API accepts.
const MinThinkingBudget = 1024

// ThinkingFor returns the thinking field and max_tokens to send the model
// for what the user asked: an explicit thinking setting (set, nil for
// none) or else a budget (0 for none), with maxTokens the output cap
// before thinking. The request takes a form the model accepts: a budget
// or "enabled" becomes adaptive on a model that prefers or requires it,
// "adaptive" becomes a budget (of maxTokens) on a model without it, and
// "disabled" leaves the field out on a model that refuses it. A budget
// raises max_tokens by its size, within the model's output limit.
func (m ModelInfo) ThinkingFor(set *Thinking, budget, maxTokens int) (*Thinking, int) {
	mode := m.ThinkingMode()
	if set != nil {
		switch set.Type {
		case "disabled":
			if mode == ThinkingAdaptiveOnly {
				return nil, maxTokens
			}
			return set, maxTokens
		case "adaptive":
			if mode != ThinkingBudget {
				return set, maxTokens
			}
			budget = maxTokens
		case "enabled":
			budget = max(set.BudgetTokens, 1)
		default:
			return set, maxTokens // a type this table does not know: as given
		}
		if budget <= 0 {
			return set, maxTokens
		}
	}
	if budget <= 0 {
		return nil, maxTokens
	}
	display := ""
	if set != nil {
		display = set.Display
	}
	if mode != ThinkingBudget {
		return &Thinking{Type: "adaptive", Display: display}, maxTokens
	}
	// The API refuses a budget below its minimum; a smaller one asks for
	// as little thinking as it allows.
	budget = max(budget, MinThinkingBudget)
	th := &Thinking{Type: "enabled", BudgetTokens: budget, Display: display}
	maxTokens += budget
	if m.MaxOutput > 0 && maxTokens > m.MaxOutput {
		maxTokens = m.MaxOutput
		if th.BudgetTokens >= maxTokens {
			th.BudgetTokens = maxTokens / 2
		}
	}
	return th, maxTokens
}
