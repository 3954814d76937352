package dice

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// dense is the face network's last layer, logits = W·features + B, read from the ONNX file so
// that an adapted reader (adapt.go) can compute the logits of a head fitted on the rig's own
// dice from the features alone, in the same pass.
type dense struct {
	W   []float32 // Out x In, row-major (ONNX Gemm with transB = 1, as torch's Linear exports)
	B   []float32 // Out
	In  int
	Out int
	// Layer is the OpenCV name of the layer giving the features (the Gemm's input), by OpenCV
	// 4.6's rule: "onnx_node!" and the ONNX node's name, or "onnx_node_output_0!" and its output.
	Layer string
}

// pbField calls fn for each field of a protobuf message: its number, wire type and, for
// length-delimited fields, its bytes (for varints, v).
func pbField(b []byte, fn func(num int, wire int, v uint64, data []byte) error) error {
	for i := 0; i < len(b); {
		key, n := binary.Uvarint(b[i:])
		if n <= 0 {
			return fmt.Errorf("bad field key at byte %d", i)
		}
		i += n
		num, wire := int(key>>3), int(key&7)
		var v uint64
		var data []byte
		switch wire {
		case 0:
			if v, n = binary.Uvarint(b[i:]); n <= 0 {
				return fmt.Errorf("bad varint at byte %d", i)
			}
			i += n
		case 1:
			i += 8
		case 5:
			i += 4
		case 2:
			l, n := binary.Uvarint(b[i:])
			if n <= 0 || l > uint64(len(b)-i-n) {
				return fmt.Errorf("field %d at byte %d runs past the end", num, i)
			}
			data = b[i+n : i+n+int(l)]
			i += n + int(l)
		default:
			return fmt.Errorf("wire type %d at byte %d", wire, i)
		}
		if i > len(b) {
			return errors.New("truncated")
		}
		if err := fn(num, wire, v, data); err != nil {
			return err
		}
	}
	return nil
}

// lastDense finds the network's last Gemm node and its float weights (ModelProto.graph = 7;
// GraphProto.node = 1, initializer = 5; NodeProto.input = 1, op_type = 4, attribute = 5;
// TensorProto.dims = 1, data_type = 2, float_data = 4, name = 8, raw_data = 9).
func lastDense(model []byte) (dense, error) {
	var graph []byte
	if err := pbField(model, func(num, _ int, _ uint64, d []byte) error {
		if num == 7 {
			graph = d
		}
		return nil
	}); err != nil || graph == nil {
		return dense{}, fmt.Errorf("no graph in the ONNX file (%v)", err)
	}
	type tensor struct {
		dims []int
		vals []float32
	}
	var gemm []string
	transB := false
	layerOf := map[string]string{} // node output -> OpenCV layer name
	inits := map[string]tensor{}
	err := pbField(graph, func(num, _ int, _ uint64, d []byte) error {
		switch num {
		case 1:
			var in, out []string
			op, name, tb := "", "", false
			err := pbField(d, func(n, _ int, _ uint64, x []byte) error {
				switch n {
				case 1:
					in = append(in, string(x))
				case 2:
					out = append(out, string(x))
				case 3:
					name = string(x)
				case 4:
					op = string(x)
				case 5: // AttributeProto: name = 1, i = 3
					name, i := "", uint64(0)
					if err := pbField(x, func(n, _ int, v uint64, y []byte) error {
						if n == 1 {
							name = string(y)
						} else if n == 3 {
							i = v
						}
						return nil
					}); err != nil {
						return err
					}
					if name == "transB" {
						tb = i == 1
					}
				}
				return nil
			})
			if err != nil {
				return err
			}
			if op == "Gemm" {
				gemm, transB = in, tb
			}
			if len(out) > 0 {
				l := "onnx_node!" + name
				if name == "" {
					l = "onnx_node_output_0!" + out[0]
				}
				layerOf[out[0]] = l
			}
		case 5:
			var t tensor
			name, dtype := "", uint64(0)
			var raw []byte
			err := pbField(d, func(n, wire int, v uint64, x []byte) error {
				switch {
				case n == 1 && wire == 0:
					t.dims = append(t.dims, int(v))
				case n == 1 && wire == 2: // packed dims
					for len(x) > 0 {
						u, k := binary.Uvarint(x)
						if k <= 0 {
							return errors.New("bad packed dims")
						}
						t.dims, x = append(t.dims, int(u)), x[k:]
					}
				case n == 2:
					dtype = v
				case n == 4 && wire == 2:
					raw = x
				case n == 8:
					name = string(x)
				case n == 9:
					raw = x
				}
				return nil
			})
			if err != nil {
				return err
			}
			if dtype == 1 && len(raw)%4 == 0 { // FLOAT
				t.vals = make([]float32, len(raw)/4)
				for i := range t.vals {
					t.vals[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
				}
				inits[name] = t
			}
		}
		return nil
	})
	if err != nil {
		return dense{}, fmt.Errorf("read the ONNX graph: %w", err)
	}
	if len(gemm) != 3 || !transB {
		return dense{}, errors.New("the network does not end in a dense layer (Gemm with transB)")
	}
	w, b := inits[gemm[1]], inits[gemm[2]]
	if len(w.dims) != 2 || w.dims[0] <= 0 || w.dims[1] <= 0 || w.dims[0] > len(w.vals) ||
		len(b.vals) != w.dims[0] || len(w.vals)/w.dims[0] != w.dims[1] || len(w.vals)%w.dims[0] != 0 {
		return dense{}, fmt.Errorf("dense layer weights %v and bias of %d values do not fit", w.dims, len(b.vals))
	}
	if layerOf[gemm[0]] == "" {
		return dense{}, fmt.Errorf("no node gives the dense layer's input %q", gemm[0])
	}
	return dense{W: w.vals, B: b.vals, Out: w.dims[0], In: w.dims[1], Layer: layerOf[gemm[0]]}, nil
}
