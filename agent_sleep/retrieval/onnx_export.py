"""Write all-MiniLM-L6-v2 (a BERT encoder with mean pooling) as an ONNX graph, without torch.

The graph is assembled node by node from the ``model.safetensors`` weights with the ``onnx``
helpers: embeddings, ``num_hidden_layers`` encoder layers (fused QKV projection, masked softmax
attention, exact GELU, post-LayerNorm), then mean pooling over the attention mask. Inputs
``input_ids`` (int64, B×T), ``word_vectors`` (float32, B×T×H: each id's row of the word-piece
table, which the caller gathers, see below) and ``attention_mask`` (float32, B×T); outputs
``pooled`` (B×H),
not yet normalized, and ``tokens`` (B×T×H), the last layer's token states that
sentence-transformers calls ``token_embeddings`` (recall's late-interaction rerank reads them).
Runs once per model file; the result is cached by ``embed``.

The word-piece table (30,522 × 384 floats) is half the weights, and a session spends its
start-up on every weight it holds; a query needs a dozen of its rows. So the table stays out
of the graph: ``embed`` reads those rows from ``model.safetensors`` itself, memory-mapped.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

OPSET = 20  # first opset with Gelu


def build_graph(folder: Path) -> bytes:
    # One long function on purpose: the graph reads top to bottom as the encoder does
    # (embeddings, then each layer's attention and feed-forward, then pooling), and its node
    # names, shared by every step, stay in one scope.
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper
    from safetensors.numpy import load_file

    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    weights = load_file(str(folder / "model.safetensors"))
    prefix = "bert." if "bert.embeddings.word_embeddings.weight" in weights else ""
    w = {k[len(prefix) :]: v for k, v in weights.items() if k.startswith(prefix)}
    hidden = int(config["hidden_size"])
    heads = int(config["num_attention_heads"])
    size = hidden // heads
    eps = float(config.get("layer_norm_eps", 1e-12))

    nodes: list[Any] = []
    inits: list[Any] = []

    def const(name: str, value: Any) -> str:
        inits.append(numpy_helper.from_array(np.array(value, order="C"), name))
        return name

    def op(kind: str, inputs: list[str], **attrs: Any) -> str:
        out = f"{kind}_{len(nodes)}"
        nodes.append(helper.make_node(kind, inputs, [out], **attrs))
        return out

    def dense(x: str, name: str) -> str:
        weight = const(name + ".w", w[name + ".weight"].T)
        return op("Add", [op("MatMul", [x, weight]), const(name + ".b", w[name + ".bias"])])

    def norm(x: str, name: str) -> str:
        gamma, beta = const(name + ".g", w[name + ".weight"]), const(name + ".b", w[name + ".bias"])
        return op("LayerNormalization", [x, gamma, beta], axis=-1, epsilon=eps)

    zero, one = const("zero", np.int64(0)), const("one", np.int64(1))
    width = op("Gather", [op("Shape", ["input_ids"]), one], axis=0)
    positions = op("Range", [zero, width, one])
    x = op(
        "Add",
        [
            op(
                "Add",
                [
                    "word_vectors",
                    op(
                        "Gather",
                        [const("pos", w["embeddings.position_embeddings.weight"]), positions],
                    ),
                ],
            ),
            const("type0", w["embeddings.token_type_embeddings.weight"][0]),
        ],
    )
    x = norm(x, "embeddings.LayerNorm")
    masked = op(
        "Mul",
        [
            op("Sub", [const("onef", np.float32(1)), "attention_mask"]),
            const("neg", np.float32(-1e9)),
        ],
    )
    mask_bias = op("Unsqueeze", [masked, const("axes12", np.array([1, 2], np.int64))])
    split_shape = const("split", np.array([0, 0, 3, heads, size], np.int64))
    merge_shape = const("merge", np.array([0, 0, hidden], np.int64))
    scale = const("scale", np.float32(1.0 / np.sqrt(size)))
    picks = [const(f"pick{j}", np.int64(j)) for j in range(3)]
    for i in range(int(config["num_hidden_layers"])):
        p = f"encoder.layer.{i}."
        names = ("query", "key", "value")
        qkv_w = np.concatenate([w[p + f"attention.self.{n}.weight"] for n in names]).T
        qkv_b = np.concatenate([w[p + f"attention.self.{n}.bias"] for n in names])
        qkv = op("Add", [op("MatMul", [x, const(p + "qkv.w", qkv_w)]), const(p + "qkv.b", qkv_b)])
        qkv = op("Transpose", [op("Reshape", [qkv, split_shape])], perm=[2, 0, 3, 1, 4])
        q, k, v = (op("Gather", [qkv, pick], axis=0) for pick in picks)
        scores = op("MatMul", [q, op("Transpose", [k], perm=[0, 1, 3, 2])])
        probs = op("Softmax", [op("Add", [op("Mul", [scores, scale]), mask_bias])], axis=-1)
        ctx = op("Transpose", [op("MatMul", [probs, v])], perm=[0, 2, 1, 3])
        attn = dense(op("Reshape", [ctx, merge_shape]), p + "attention.output.dense")
        x = norm(op("Add", [attn, x]), p + "attention.output.LayerNorm")
        inner = op("Gelu", [dense(x, p + "intermediate.dense")], approximate="none")
        x = norm(op("Add", [dense(inner, p + "output.dense"), x]), p + "output.LayerNorm")
    weighted = op(
        "Mul", [x, op("Unsqueeze", ["attention_mask", const("axes2", np.array([2], np.int64))])]
    )
    axis1 = const("axes1", np.array([1], np.int64))
    total = op("ReduceSum", [weighted, axis1], keepdims=0)
    count = op("ReduceSum", ["attention_mask", axis1], keepdims=1)
    nodes.append(helper.make_node("Div", [total, count], ["pooled"]))
    nodes.append(helper.make_node("Identity", [x], ["tokens"]))
    graph = helper.make_graph(
        nodes,
        "minilm",
        [
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "tokens"]),
            helper.make_tensor_value_info(
                "word_vectors", TensorProto.FLOAT, ["batch", "tokens", hidden]
            ),
            helper.make_tensor_value_info("attention_mask", TensorProto.FLOAT, ["batch", "tokens"]),
        ],
        [
            helper.make_tensor_value_info("pooled", TensorProto.FLOAT, ["batch", hidden]),
            helper.make_tensor_value_info("tokens", TensorProto.FLOAT, ["batch", "tokens", hidden]),
        ],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = 10
    data: bytes = model.SerializeToString()
    return data
