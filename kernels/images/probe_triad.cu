// The kernel the driver plugin loads image by image (each SASS, then the PTX)
// to prove which images a GPU and driver can run. extern "C" keeps its name
// unmangled for cuModuleGetFunction.
extern "C" __global__ void strata_probe_triad(float* a, const float* b, const float* c, float scalar,
                                              unsigned long long n) {
    for (unsigned long long i = blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<unsigned long long>(gridDim.x) * blockDim.x)
        a[i] = b[i] + scalar * c[i];
}
