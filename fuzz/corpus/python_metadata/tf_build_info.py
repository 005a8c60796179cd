build_info = collections.OrderedDict([('cuda_version', '11.2'), ('cudnn_version', '8'), ('is_cuda_build', True)])
