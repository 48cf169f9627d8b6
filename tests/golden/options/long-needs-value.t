tests/golden/kineto/two-steps.json --print
