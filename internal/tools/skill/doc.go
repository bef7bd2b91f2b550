// Package skill is the Skill tool: the model loads a skill or custom
// prompt command by name, with optional arguments, and gets its expanded
// instructions as user-side content.
//
// The tool's description is static; which skills exist reaches the model
// through the listing reminder built by command.SkillListing, so the tool
// list stays cache-stable. The commands are looked up when the tool is
// called, so skills added during the session (MCP prompts) are found.
//
// This package expands nothing itself (package command does) and must not
// import the engine or any front end.
package skill
