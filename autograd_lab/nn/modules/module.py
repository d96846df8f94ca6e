"""``nn.Module``: a container of parameters, buffers and sub-modules, with a ``forward``.

Assigning a ``Parameter`` or a ``Module`` as an attribute registers it (in
``_parameters`` / ``_modules``); ``parameters()``, ``state_dict()``, ``zero_grad()``
and ``to()`` then walk the tree. Calling the module runs ``forward`` between the
optional forward pre-hooks and hooks.
"""

from __future__ import annotations

import itertools
from collections import OrderedDict, namedtuple
from typing import Any, Callable, Iterator

from ..._device import check_cpu
from ..._dtype import float16, float32, float64
from ...grad_mode import no_grad
from ...tensor import Tensor, typename
from ..parameter import Buffer, Parameter
from ._backward_hooks import BackwardHook

__all__ = ["Module"]


def _addindent(s_: str, num_spaces: int) -> str:
    s = s_.split("\n")
    if len(s) == 1:
        return s_
    first = s.pop(0)
    rest = [(num_spaces * " ") + line if line.strip() else "" for line in s]
    return first + "\n" + "\n".join(rest)


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return f"_IncompatibleKeys(missing_keys={self.missing_keys}, " \
               f"unexpected_keys={self.unexpected_keys})"

    __str__ = __repr__


class RemovableHandle:
    """Returned by ``register_forward_hook`` & co; ``remove()`` unregisters the hook."""

    _next_id = itertools.count()

    def __init__(self, hooks: dict) -> None:
        self.hooks_dict_ref = hooks
        self.id = next(RemovableHandle._next_id)

    def remove(self) -> None:
        """Unregister the hook."""
        self.hooks_dict_ref.pop(self.id, None)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()


class Module:
    """Base class of every layer and model."""

    training: bool
    dump_patches = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if args or kwargs:
            raise TypeError(
                f"{type(self).__name__}.__init__() takes 1 positional argument but "
                f"{len(args) + 1} were given" if args else
                f"{type(self).__name__}.__init__() got an unexpected keyword argument "
                f"'{next(iter(kwargs))}'"
            )
        d = self.__dict__
        d["training"] = True
        d["_parameters"] = {}
        d["_buffers"] = {}
        d["_non_persistent_buffers_set"] = set()
        d["_modules"] = {}
        d["_forward_hooks"] = OrderedDict()
        d["_forward_pre_hooks"] = OrderedDict()
        d["_backward_hooks"] = OrderedDict()
        d["_backward_pre_hooks"] = OrderedDict()

    # ---- forward --------------------------------------------------------------------------

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        """The computation of the module (subclasses define it)."""
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function'
        )

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        d = self.__dict__
        pre, post = d.get("_forward_pre_hooks"), d.get("_forward_hooks")
        back, back_pre = d.get("_backward_hooks"), d.get("_backward_pre_hooks")
        if not pre and not post and not back and not back_pre:
            return self.forward(*args, **kwargs)
        for hook in list(pre.values()):
            res = hook(self, args)
            if res is not None:
                args = res if isinstance(res, tuple) else (res,)
        bw = None
        if back or back_pre:  # the module's tensors pass through nodes that catch gradients
            bw = BackwardHook(self, list(back.values()), list(back_pre.values()))
            args = bw.setup_input_hook(args)
        result = self.forward(*args, **kwargs)
        for hook in list(post.values()):
            res = hook(self, args, result)
            if res is not None:
                result = res
        if bw is not None:
            result = bw.setup_output_hook(result)
        return result

    def register_forward_hook(self, hook: Callable) -> RemovableHandle:
        """``hook(module, inputs, output)`` after every forward; a return replaces the output."""
        handle = RemovableHandle(self._forward_hooks)
        self._forward_hooks[handle.id] = hook
        return handle

    def register_full_backward_hook(self, hook: Callable) -> RemovableHandle:
        """``hook(module, grad_input, grad_output)`` once the gradients with respect to the
        module's inputs are computed; a return replaces ``grad_input``."""
        handle = RemovableHandle(self._backward_hooks)
        self._backward_hooks[handle.id] = hook
        return handle

    def register_full_backward_pre_hook(self, hook: Callable) -> RemovableHandle:
        """``hook(module, grad_output)`` when the gradients of the module's outputs arrive; a
        return replaces ``grad_output``."""
        handle = RemovableHandle(self._backward_pre_hooks)
        self._backward_pre_hooks[handle.id] = hook
        return handle

    def register_forward_pre_hook(self, hook: Callable) -> RemovableHandle:
        """``hook(module, inputs)`` before every forward; a return replaces the inputs."""
        handle = RemovableHandle(self._forward_pre_hooks)
        self._forward_pre_hooks[handle.id] = hook
        return handle

    # ---- registration -------------------------------------------------------------------

    def _check_name(self, kind: str, name: Any, registry: dict) -> None:
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {typename(name)}")
        if "." in name:
            raise KeyError(f'{kind} name can\'t contain "."')
        if name == "":
            raise KeyError(f'{kind} name can\'t be empty string ""')
        if hasattr(self, name) and name not in registry:
            raise KeyError(f"attribute '{name}' already exists")

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Register ``param`` (or None) under ``name``."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        self._check_name("parameter", name, self._parameters)
        if param is None:
            self._parameters[name] = None
            return
        if not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{typename(param)}' object to parameter '{name}' "
                "(torch.nn.Parameter or None required)"
            )
        if param.grad_fn is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be "
                f"created explicitly. To express '{name}' as a function of another Tensor, "
                "compute the value in the forward() method."
            )
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Register a tensor that is state but not a parameter (e.g. running statistics)."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        self._check_name("buffer", name, self._buffers)
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(
                f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                "(torch Tensor or None required)"
            )
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name: str, module: Module | None) -> None:
        """Register a child module under ``name``."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{typename(module)} is not a Module subclass")
        self._check_name("module", name, self._modules)
        self._modules[name] = module

    register_module = add_module

    def __setattr__(self, name: str, value: Any) -> None:
        d = self.__dict__

        def remove_from(*dicts: Any) -> None:
            for r in dicts:
                if name in r:
                    if isinstance(r, dict):
                        del r[name]
                    else:
                        r.discard(name)

        params = d.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            remove_from(d, self._buffers, self._modules, self._non_persistent_buffers_set)
            self.register_parameter(name, value)
            return
        if params is not None and name in params:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{typename(value)}' as parameter '{name}' "
                    "(torch.nn.Parameter or None expected)"
                )
            self.register_parameter(name, value)
            return
        modules = d.get("_modules")
        if isinstance(value, Module):
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            remove_from(d, self._parameters, self._buffers, self._non_persistent_buffers_set)
            modules[name] = value
            return
        if modules is not None and name in modules:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{typename(value)}' as child module '{name}' "
                    "(torch.nn.Module or None expected)"
                )
            modules[name] = value
            return
        buffers = d.get("_buffers")
        if isinstance(value, Buffer) or (buffers is not None and name in buffers):
            if value is not None and not isinstance(value, (Tensor, Buffer)):
                raise TypeError(
                    f"cannot assign '{typename(value)}' as buffer '{name}' "
                    "(torch.nn.Buffer, torch.Tensor or None expected)"
                )
            if isinstance(value, Buffer):
                persistent, value = value.persistent, value.data
            else:
                persistent = name not in self._non_persistent_buffers_set
            remove_from(d, self._parameters, self._modules)
            self.register_buffer(name, value, persistent)
            return
        object.__setattr__(self, name, value)

    def __getattr__(self, name: str) -> Any:
        d = self.__dict__
        for registry in ("_parameters", "_buffers", "_modules"):
            r = d.get(registry)
            if r is not None and name in r:
                return r[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for registry in (self._parameters, self._buffers, self._modules):
            if name in registry:
                del registry[name]
                self._non_persistent_buffers_set.discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self) -> list:
        keys = list(object.__dir__(self))
        keys += list(self._parameters) + list(self._buffers) + list(self._modules)
        return sorted(k for k in set(keys) if not k[0].isdigit())

    # ---- walking the tree -------------------------------------------------------------------

    def _named_members(self, get: Callable[[Module], Any], prefix: str = "",
                       recurse: bool = True, remove_duplicate: bool = True) -> Iterator:
        memo: set = set()
        modules = (self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
                   if recurse else [(prefix, self)])
        for module_prefix, module in modules:
            for k, v in get(module):
                if v is None or (remove_duplicate and id(v) in memo):
                    continue
                if remove_duplicate:
                    memo.add(id(v))
                yield (module_prefix + ("." if module_prefix else "") + k, v)

    def named_parameters(self, prefix: str = "", recurse: bool = True,
                         remove_duplicate: bool = True) -> Iterator[tuple[str, Parameter]]:
        """(name, parameter) pairs of this module and (with ``recurse``) its children."""
        return self._named_members(lambda m: m._parameters.items(), prefix, recurse,
                                   remove_duplicate)

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        """The parameters of this module and (with ``recurse``) its children."""
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix: str = "", recurse: bool = True,
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        """(name, buffer) pairs of this module and (with ``recurse``) its children."""
        return self._named_members(lambda m: m._buffers.items(), prefix, recurse,
                                   remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        """The buffers of this module and (with ``recurse``) its children."""
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def named_children(self) -> Iterator[tuple[str, Module]]:
        """(name, module) pairs of the direct children."""
        memo: set = set()
        for name, module in self._modules.items():
            if module is not None and id(module) not in memo:
                memo.add(id(module))
                yield name, module

    def children(self) -> Iterator[Module]:
        """The direct child modules."""
        for _, m in self.named_children():
            yield m

    def named_modules(self, memo: set | None = None, prefix: str = "",
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Module]]:
        """(name, module) pairs of this module and all below it, each once."""
        if memo is None:
            memo = set()
        if id(self) in memo:
            return
        if remove_duplicate:
            memo.add(id(self))
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            sub = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, sub, remove_duplicate)

    def modules(self) -> Iterator[Module]:
        """This module and all below it, each once."""
        for _, m in self.named_modules():
            yield m

    def get_submodule(self, target: str) -> Module:
        """The module at the dotted path ``target`` (``"0.linear"``)."""
        if target == "":
            return self
        mod: Module = self
        for item in target.split("."):
            if not hasattr(mod, item):
                raise AttributeError(f"{mod._get_name()} has no attribute `{item}`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return mod

    def get_parameter(self, target: str) -> Parameter:
        """The parameter at the dotted path ``target``."""
        module_path, _, name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, name):
            raise AttributeError(f"{mod._get_name()} has no attribute `{name}`")
        param = getattr(mod, name)
        if not isinstance(param, Parameter):
            raise AttributeError("`" + name + "` is not an nn.Parameter")
        return param

    def apply(self, fn: Callable[[Module], None]) -> Module:
        """``fn`` on every sub-module (children first), then on this module."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # ---- modes and gradients ------------------------------------------------------------------

    def train(self, mode: bool = True) -> Module:
        """Set training mode (``mode``) on this module and all below it."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self) -> Module:
        """``train(False)``."""
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        """Set ``requires_grad`` on every parameter."""
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of all parameters (to None, or to zeros in place)."""
        for p in self.parameters():
            if p._grad is None:
                continue
            if set_to_none:
                p._grad = None
            else:
                g = p._grad
                if g.grad_fn is not None:
                    g.detach_()
                else:
                    g._rg = False
                g.zero_()

    # ---- conversion ----------------------------------------------------------------------------

    def _apply(self, fn: Callable[[Tensor], Tensor]) -> Module:
        for module in self.children():
            module._apply(fn)
        with no_grad():
            for p in self._parameters.values():
                if p is None:
                    continue
                new = fn(p)
                p.data = new  # keeps the Parameter object (and the optimizer's reference)
                if p._grad is not None:
                    p._grad.data = fn(p._grad)
            for k, b in self._buffers.items():
                if b is not None:
                    self._buffers[k] = fn(b)
        return self

    def to(self, *args: Any, **kwargs: Any) -> Module:
        """``to(dtype)`` converts floating-point parameters and buffers; devices: CPU only."""
        dtype = kwargs.get("dtype")
        for a in list(args) + [kwargs.get("device")]:
            if a is None:
                continue
            if isinstance(a, Tensor):
                dtype = a.dtype
            elif hasattr(a, "is_floating_point") and not isinstance(a, str):
                dtype = a
            else:
                check_cpu(a)
        if dtype is None:
            return self
        if not dtype.is_floating_point:
            raise TypeError(
                f"nn.Module.to only accepts floating point or complex dtypes, but got desired "
                f"dtype={dtype}"
            )
        return self._apply(lambda t: t.to(dtype) if t.dtype.is_floating_point else t)

    def double(self) -> Module:
        """Cast floating-point parameters and buffers to float64."""
        return self.to(float64)

    def float(self) -> Module:  # noqa: A003
        """Cast floating-point parameters and buffers to float32."""
        return self.to(float32)

    def half(self) -> Module:
        """Cast floating-point parameters and buffers to float16."""
        return self.to(float16)

    def cpu(self) -> Module:
        """This module (everything is on the CPU already)."""
        return self

    def cuda(self, device: Any = None) -> Module:
        """torch's error: there is no CUDA here."""
        raise AssertionError("Torch not compiled with CUDA enabled")

    # ---- state ---------------------------------------------------------------------------

    def state_dict(self, *args: Any, destination: Any = None, prefix: str = "",
                   keep_vars: bool = False) -> OrderedDict:
        """Parameters and persistent buffers by dotted name (detached unless ``keep_vars``)."""
        if args:  # legacy positional (destination, prefix, keep_vars)
            destination = args[0]
            if len(args) > 1:
                prefix = args[1]
            if len(args) > 2:
                keep_vars = args[2]
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        meta = getattr(destination, "_metadata", None)
        if meta is not None:
            meta[prefix[:-1]] = {"version": 1}
        for name, p in self._parameters.items():
            if p is not None:
                destination[prefix + name] = p if keep_vars else p.detach()
        for name, b in self._buffers.items():
            if b is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = b if keep_vars else b.detach()
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".",
                                  keep_vars=keep_vars)
        return destination

    def load_state_dict(self, state_dict: Any, strict: bool = True,
                        assign: bool = False) -> _IncompatibleKeys:
        """Copy values into the parameters and buffers; report missing/unexpected keys."""
        if not hasattr(state_dict, "keys"):
            raise TypeError(
                f"Expected state_dict to be dict-like, got {type(state_dict)}."
            )
        missing: list[str] = []
        unexpected: list[str] = []
        errors: list[str] = []
        expected: set[str] = set()
        for prefix, module in self.named_modules(remove_duplicate=False):
            pre = prefix + "." if prefix else ""
            local = list(module._parameters.items()) + [
                (k, v) for k, v in module._buffers.items()
                if k not in module._non_persistent_buffers_set
            ]
            for name, param in local:
                if param is None:
                    continue
                key = pre + name
                expected.add(key)
                if key not in state_dict:
                    missing.append(key)
                    continue
                src = state_dict[key]
                if not isinstance(src, Tensor):
                    errors.append(
                        f'While copying the parameter named "{key}", expected torch.Tensor or '
                        f"Tensor-like object from checkpoint but received {type(src)}"
                    )
                    continue
                if param.ndim == 0 and src.ndim == 1 and src.shape[0] == 1:
                    src = src[0]
                if src.shape != param.shape:
                    errors.append(
                        f"size mismatch for {key}: copying a param with shape {src.shape} from "
                        f"checkpoint, the shape in current model is {param.shape}."
                    )
                    continue
                with no_grad():
                    if assign:
                        new = Parameter(src, param.requires_grad) \
                            if isinstance(param, Parameter) else src
                        setattr(module, name, new)
                    else:
                        param.copy_(src)
        for key in state_dict.keys():
            if key not in expected:
                unexpected.append(key)
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected)))
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing)))
        if errors:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(errors)))
        return _IncompatibleKeys(missing, unexpected)

    # ---- printing ----------------------------------------------------------------------------

    def _get_name(self) -> str:
        return type(self).__name__

    def extra_repr(self) -> str:
        """One line (or several) shown inside the parentheses of the repr."""
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({key}): " + _addindent(repr(module), 2)
                       for key, module in self._modules.items()]
        lines = extra_lines + child_lines
        main = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main += extra_lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"
