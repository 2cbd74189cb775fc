# Chebyshev fits of the polynomial kernels in backends/common/MathFunctions.cpp
# (needs Debian's python3-mpmath). Usage: fit_polynomials.py NAME DEGREE+1 [A B]
# where NAME is exp, lg, sin, cos, erfs, tanh, or anything else for the scaled
# erfc G(x) = erfc(x) exp(x^2) on [A, B]. See docs/math.md.
import mpmath as mp
mp.mp.dps = 50
def fit(name, f, a, b, n):
    c, err = mp.chebyfit(f, [a, b], n, error=True)
    c = c[::-1]  # lowest degree first
    print(name, "deg", n-1, "err %.3e" % float(err))
    return c
def show(c):
    for v in c: print("   %.20e," % float(v) if False else "   " + mp.nstr(v, 21) + ",")
ln2h = mp.log(2)/2
import sys
which = sys.argv[1]; n = int(sys.argv[2])
F = {
 'exp': (lambda r: (mp.exp(r)-1-r)/r**2 if abs(r) > 1e-20 else mp.mpf(1)/2, -ln2h, ln2h),
 'lg': (lambda z: (2*mp.atanh(mp.sqrt(z))/mp.sqrt(z) - 2)/z if abs(z) > 1e-30 else mp.mpf(2)/3, mp.mpf(0), (3-2*mp.sqrt(2))**2),
 'sin': (lambda z: (mp.sin(mp.sqrt(z))/mp.sqrt(z) - 1)/z if abs(z) > 1e-30 else -mp.mpf(1)/6, mp.mpf(0), (mp.pi/4)**2),
 'cos': (lambda z: (mp.cos(mp.sqrt(z)) - 1 + z/2)/z**2 if abs(z) > 1e-30 else mp.mpf(1)/24, mp.mpf(0), (mp.pi/4)**2),
 'erfs': (lambda z: mp.erf(mp.sqrt(z))/mp.sqrt(z) if abs(z) > 1e-30 else 2/mp.sqrt(mp.pi), mp.mpf(0), mp.mpf(1)),
 'tanh': (lambda z: (mp.tanh(mp.sqrt(z))/mp.sqrt(z) - 1)/z if abs(z) > 1e-30 else -mp.mpf(1)/3, mp.mpf(0), mp.mpf(0.5)**2),
}
if which in F:
    f, a, b = F[which]; show(fit(which, f, a, b, n))
else:  # erfc scaled G on [a,b]
    a, b = mp.mpf(sys.argv[3]), mp.mpf(sys.argv[4])
    show(fit('G', lambda x: mp.erfc(x)*mp.exp(x*x), a, b, n))
