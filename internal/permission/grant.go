package permission

import (
	"errors"
	"fmt"
	"slices"

	"reins/internal/settings"
)

// Grant adds allow rules that hold until the returned revoke is called: a
// custom command's or skill's allowed-tools, for the turn it runs in. The
// rules that parse are added even when others do not; the error names the
// ones that were skipped. revoke removes exactly the rules this call added
// and may be called more than once.
func (c *Checker) Grant(rules []string) (revoke func(), err error) {
	c.mu.Lock()
	root := c.cfg.ProjectDir
	if root == "" {
		root = c.p.Cwd
	}
	c.mu.Unlock()
	var added []Rule
	var errs []error
	for _, text := range rules {
		r, perr := ruleFrom(text, Allow, settings.SourceCommand, "", root)
		if perr != nil {
			errs = append(errs, fmt.Errorf("allowed-tools rule %q: %w", text, perr))
			continue
		}
		added = append(added, r)
	}
	c.mu.Lock()
	c.p.Rules = append(slices.Clone(c.p.Rules), added...)
	c.mu.Unlock()
	done := false
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if done {
			return
		}
		done = true
		kept := slices.Clone(c.p.Rules)
		for _, r := range added {
			if i := slices.Index(kept, r); i >= 0 {
				kept = slices.Delete(kept, i, i+1)
			}
		}
		c.p.Rules = kept
	}, errors.Join(errs...)
}
