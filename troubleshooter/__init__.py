"""trt-why: why did my TensorRT build fail?"""
