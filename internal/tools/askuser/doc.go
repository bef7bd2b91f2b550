// Package askuser is the AskUserQuestion tool: the model asks the user one
// to four multiple-choice questions and continues with the answers.
//
// The input has Claude Code's shape, {questions:[{question, header,
// options:[{label, description}], multiSelect}]}. The tool itself never
// talks to a terminal: the permission gate puts the call to the front end's
// engine.Asker (the terminal UI shows a question dialog, the SDK front end
// sends can_use_tool), and the answer comes back as an updated input that
// carries an "answers" map from each question's text to the chosen label
// (several labels joined by ", " for multiSelect, or the user's own text).
// Call then reports those answers to the model. A call that reaches Call
// without answers (nobody could be asked) is an error result.
//
// The tool reports RequiresUserInteraction, so gates ask for it whatever
// the permission mode; in print mode, where nobody can answer, the CLI
// leaves it out of the tool list.
package askuser
