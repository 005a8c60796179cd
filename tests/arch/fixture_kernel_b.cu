// A second translation unit for the arch/ fixtures that link two (its own kernel name).
__global__ void scale_other_unit(float* x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}
