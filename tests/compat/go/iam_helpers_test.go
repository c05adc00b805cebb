package compat

import (
	"context"
	"testing"

	iampb "cloud.google.com/go/iam/apiv1/iampb"
	"github.com/googleapis/gax-go/v2"
)

// iamFuncs adapts one generated client's three IAM methods to a common shape.
type iamFuncs struct {
	t   *testing.T
	get func(context.Context, *iampb.GetIamPolicyRequest, ...gax.CallOption) (*iampb.Policy, error)
	set func(context.Context, *iampb.SetIamPolicyRequest, ...gax.CallOption) (*iampb.Policy, error)
	tst func(context.Context, *iampb.TestIamPermissionsRequest, ...gax.CallOption) (*iampb.TestIamPermissionsResponse, error)
}

func (f iamFuncs) getPolicy(r string) (*iampb.Policy, error) {
	return f.get(ctxFor(f.t, wait), &iampb.GetIamPolicyRequest{Resource: r})
}

func (f iamFuncs) setPolicy(r string, p *iampb.Policy) (*iampb.Policy, error) {
	return f.set(ctxFor(f.t, wait), &iampb.SetIamPolicyRequest{Resource: r, Policy: p})
}

func (f iamFuncs) test(r string, perms []string) ([]string, error) {
	res, err := f.tst(ctxFor(f.t, wait), &iampb.TestIamPermissionsRequest{Resource: r, Permissions: perms})
	if err != nil {
		return nil, err
	}
	return res.Permissions, nil
}
