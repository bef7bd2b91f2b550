package streamjson

import (
	"cmp"
	"time"

	"github.com/google/uuid"

	"reins/internal/task"
)

// taskType is the task_type Claude Code gives a kind of task.
func taskType(k task.Kind) string {
	if k == task.KindAgent {
		return "local_agent"
	}
	return "local_bash"
}

// NewTaskStarted returns a system/task_started line: a background task
// (a run_in_background command or agent) began.
func NewTaskStarted(sessionID string, i task.Info) System {
	f := map[string]any{"task_id": i.ID, "description": cmp.Or(i.Description, i.Command),
		"task_type": taskType(i.Kind), "is_backgrounded": true}
	if i.ToolUseID != "" {
		f["tool_use_id"] = i.ToolUseID
	}
	if i.AgentType != "" {
		f["subagent_type"] = i.AgentType
	}
	if i.Prompt != "" {
		f["prompt"] = i.Prompt
	}
	return System{Type: "system", Subtype: "task_started", SessionID: sessionID, UUID: uuid.NewString(), Fields: f}
}

// NewTaskNotification returns a system/task_notification line: a
// background task ended; status is completed, failed or stopped.
func NewTaskNotification(sessionID string, i task.Info) System {
	status := "completed"
	switch i.Status {
	case task.Failed:
		status = "failed"
	case task.Killed:
		status = "stopped"
	}
	f := map[string]any{"task_id": i.ID, "status": status, "output_file": i.OutputPath, "summary": i.Summary()}
	if i.ToolUseID != "" {
		f["tool_use_id"] = i.ToolUseID
	}
	return System{Type: "system", Subtype: "task_notification", SessionID: sessionID, UUID: uuid.NewString(), Fields: f}
}

// NewTaskProgress returns a system/task_progress line: a running
// background agent's work so far.
func NewTaskProgress(sessionID string, i task.Info) System {
	f := map[string]any{"task_id": i.ID, "description": cmp.Or(i.Description, i.Command)}
	if i.ToolUseID != "" {
		f["tool_use_id"] = i.ToolUseID
	}
	if i.AgentType != "" {
		f["subagent_type"] = i.AgentType
	}
	usage := map[string]any{"total_tokens": 0, "tool_uses": 0, "duration_ms": time.Since(i.Start).Milliseconds()}
	if p := i.Progress; p != nil {
		usage["total_tokens"], usage["tool_uses"] = p.Tokens, p.ToolUses
		if p.LastTool != "" {
			f["last_tool_name"] = p.LastTool
		}
	}
	f["usage"] = usage
	return System{Type: "system", Subtype: "task_progress", SessionID: sessionID, UUID: uuid.NewString(), Fields: f}
}

// TaskLine is the line for a task's snapshot: task_started when it
// starts, task_progress as it reports, task_notification once it ended.
func TaskLine(sessionID string, i task.Info) System {
	if i.Status == task.Running {
		if i.Progress != nil {
			return NewTaskProgress(sessionID, i)
		}
		return NewTaskStarted(sessionID, i)
	}
	return NewTaskNotification(sessionID, i)
}
