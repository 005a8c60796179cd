// A second translation unit for the arch/ fixtures that link two (its own kernel name;
// -DOTHER_UNIT_KERNEL=name builds a third).
#ifndef OTHER_UNIT_KERNEL
#define OTHER_UNIT_KERNEL scale_other_unit
#endif
__global__ void OTHER_UNIT_KERNEL(float* x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}
