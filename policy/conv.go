package policy

import "fmt"

// opConv is the 2-D convolution (cross-correlation) of X [N, C, H, W] with
// W [M, C/group, kH, kW] and an optional bias B [M], with explicit pads
// [top, left, bottom, right] (zeros), strides, dilations and groups.
// auto_pad must be NOTSET: the exporter writes explicit pads.
//
// The loops are ordered so that the innermost one runs along an output
// row: out[oy, ox] += w * in[iy, ox*sw + kx*dw - pl], which the compiler
// turns into a tight loop over contiguous memory when the stride is 1.
func opConv(n *Node, _ int64, in []*Tensor) (*Tensor, error) {
	if err := needInputs(in, 2); err != nil {
		return nil, err
	}
	x, w := in[0], in[1]
	var b *Tensor
	if len(in) > 2 {
		b = in[2]
	}
	if x.DType != Float32 || w.DType != Float32 || len(x.Shape) != 4 || len(w.Shape) != 4 {
		return nil, fmt.Errorf("want 4-D float X and W (2-D convolution), got %s and %s", x, w)
	}
	if a, ok := n.Attrs["auto_pad"]; ok && a.S != "" && a.S != "NOTSET" {
		return nil, fmt.Errorf("%w: Conv auto_pad=%s (only explicit pads)", ErrUnsupported, a.S)
	}
	N, C, H, W := x.Shape[0], x.Shape[1], x.Shape[2], x.Shape[3]
	M, CG, KH, KW := w.Shape[0], w.Shape[1], w.Shape[2], w.Shape[3]
	if ks := n.AttrInts("kernel_shape"); ks != nil && (len(ks) != 2 || int(ks[0]) != KH || int(ks[1]) != KW) {
		return nil, fmt.Errorf("kernel_shape %v does not match W %v", ks, w.Shape)
	}
	group := int(n.AttrInt("group", 1))
	if group < 1 || C%group != 0 || M%group != 0 || C/group != CG {
		return nil, fmt.Errorf("group %d does not fit X %v and W %v", group, x.Shape, w.Shape)
	}
	pads := [4]int{}
	if p := n.AttrInts("pads"); p != nil {
		if len(p) != 4 {
			return nil, fmt.Errorf("pads %v: want 4 values", p)
		}
		for i, v := range p {
			pads[i] = int(v)
		}
	}
	sh, sw := 1, 1
	if s := n.AttrInts("strides"); s != nil {
		if len(s) != 2 || s[0] < 1 || s[1] < 1 {
			return nil, fmt.Errorf("bad strides %v", s)
		}
		sh, sw = int(s[0]), int(s[1])
	}
	dh, dw := 1, 1
	if d := n.AttrInts("dilations"); d != nil {
		if len(d) != 2 || d[0] < 1 || d[1] < 1 {
			return nil, fmt.Errorf("bad dilations %v", d)
		}
		dh, dw = int(d[0]), int(d[1])
	}
	OH := (H+pads[0]+pads[2]-dh*(KH-1)-1)/sh + 1
	OW := (W+pads[1]+pads[3]-dw*(KW-1)-1)/sw + 1
	if OH <= 0 || OW <= 0 {
		return nil, fmt.Errorf("empty output for X %v, W %v, pads %v", x.Shape, w.Shape, pads)
	}
	if b != nil && (b.DType != Float32 || b.Len() != M) {
		return nil, fmt.Errorf("bias %s for %d output channels", b, M)
	}
	out := newTensor(Float32, []int{N, M, OH, OW})
	mg := M / group
	plane := OH * OW
	for nb := 0; nb < N; nb++ {
		for m := 0; m < M; m++ {
			if b != nil {
				p := out.F[(nb*M+m)*plane : (nb*M+m+1)*plane]
				for i := range p {
					p[i] = b.F[m]
				}
			}
		}
		// Four output channels at a time share each input row.
		for m0, mb := 0, 0; m0 < M; m0 += mb {
			mb = min(4, mg-m0%mg) // a block never straddles two groups
			g := m0 / mg
			var dsts [4][]float32
			for q := 0; q < 4; q++ {
				if q < mb {
					dsts[q] = out.F[(nb*M+m0+q)*plane : (nb*M+m0+q+1)*plane]
				}
			}
			for c := 0; c < CG; c++ {
				ic := g*CG + c
				src := x.F[(nb*C+ic)*H*W : (nb*C+ic+1)*H*W]
				for ky := 0; ky < KH; ky++ {
					for kx := 0; kx < KW; kx++ {
						var wt [4]float32
						for q := 0; q < mb; q++ {
							wt[q] = w.F[(((m0+q)*CG+c)*KH+ky)*KW+kx]
						}
						off := kx*dw - pads[1]
						// output columns whose input column is inside [0, W)
						lo := 0
						if off < 0 {
							lo = (-off + sw - 1) / sw
						}
						hi := OW
						if W-1-off < 0 {
							hi = 0
						} else if last := (W - 1 - off) / sw; last+1 < hi {
							hi = last + 1
						}
						if lo >= hi {
							continue
						}
						for oy := 0; oy < OH; oy++ {
							iy := oy*sh + ky*dh - pads[0]
							if iy < 0 || iy >= H {
								continue
							}
							row := src[iy*W : (iy+1)*W]
							o := oy * OW
							if sw == 1 && mb == 4 {
								axpy4(dsts[0][o+lo:o+hi], dsts[1][o+lo:o+hi], dsts[2][o+lo:o+hi], dsts[3][o+lo:o+hi],
									row[lo+off:hi+off], wt)
								continue
							}
							for q := 0; q < mb; q++ {
								dst := dsts[q][o : o+OW]
								for ox := lo; ox < hi; ox++ {
									dst[ox] += wt[q] * row[ox*sw+off]
								}
							}
						}
					}
				}
			}
		}
	}
	return out, nil
}

// axpy4 adds w[q]*x to each of the four rows d0..d3 (all of len(x)).
func axpy4(d0, d1, d2, d3, x []float32, w [4]float32) {
	n := len(x)
	d0, d1, d2, d3 = d0[:n], d1[:n], d2[:n], d3[:n]
	for j, v := range x {
		d0[j] += w[0] * v
		d1[j] += w[1] * v
		d2[j] += w[2] * v
		d3[j] += w[3] * v
	}
}
