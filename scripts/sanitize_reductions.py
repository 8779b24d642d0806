"""Every CUDA reduction and dim-op strategy once, small enough for compute-sanitizer: scripts/gpu-check
runs it under memcheck and racecheck (issue #12 criterion 4). float32 sums, argmax, max.dim, var,
logsumexp, norms, strided and permuted inputs; full reductions of 4 Mi elements (the split path);
softmax/log_softmax rows and columns; cumsum; bfloat16 and float16 sums, var, softmax, logsumexp."""
import ingot, numpy as np
h = np.random.default_rng(0).standard_normal((300, 4099)).astype(np.float32)
x = ingot.asarray(h, device='cuda')
big = ingot.asarray(np.random.default_rng(1).standard_normal(1 << 22).astype(np.float32), device='cuda')
rows = ingot.asarray(np.random.default_rng(2).standard_normal((64, 16384)).astype(np.float32), device='cuda')
cases = [lambda: ingot.sum(x), lambda: ingot.sum(x, 1), lambda: ingot.sum(x, 0), lambda: ingot.argmax(x),
         lambda: ingot.max(x, 0), lambda: ingot.var_mean(x, 1), lambda: ingot.var(x, 0), lambda: ingot.var(big),
         lambda: ingot.logsumexp(x, 0), lambda: ingot.logsumexp(x, 1), lambda: ingot.logsumexp(big, 0),
         lambda: ingot.sum(x[:, ::3], 0), lambda: ingot.vector_norm(x, 3.0, 1), lambda: ingot.amax(x.permute((1, 0)), 1),
         lambda: ingot.sum(big), lambda: ingot.argmax(big), lambda: ingot.std(rows, 1),
         lambda: ingot.softmax(rows, 1), lambda: ingot.log_softmax(rows, 1), lambda: ingot.softmax(x, 0),
         lambda: ingot.cumsum(rows, 1), lambda: ingot.cumsum(big, 0)]
for dt in (ingot.bfloat16, ingot.float16):
    xd, rd = x.astype(dt), rows.astype(dt)
    cases += [lambda xd=xd: ingot.sum(xd), lambda xd=xd: ingot.var(xd, 1), lambda xd=xd: ingot.var(xd, 0),
              lambda rd=rd: ingot.softmax(rd, 1), lambda rd=rd: ingot.log_softmax(rd, 1), lambda xd=xd: ingot.logsumexp(xd, 1)]
for f in cases:
    r = f()
    for t in ((r,) if hasattr(r, 'to') else tuple(r)):
        t.to('cpu')
print('ok', len(cases))
