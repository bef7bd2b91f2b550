// Package plan holds the plan-mode tools: EnterPlanMode switches the
// session to plan mode (read-only exploration), and ExitPlanMode {plan}
// presents the finished plan for the user's approval.
//
// Both tools reach the permission mode through the small Mode interface
// (the permission gate implements it). ExitPlanMode reports
// RequiresUserInteraction: the gate puts every call to the front end's
// Asker, which shows the plan; an approval may carry a "setMode" update
// naming the mode to continue in, and a refusal carries the user's
// feedback as the message to the model. When the approved call runs and
// the session is still in plan mode, Call switches back to the mode in
// force before plan mode was entered (when the Mode is a PlanLeaver, as
// the session's is), else to "default".
package plan
