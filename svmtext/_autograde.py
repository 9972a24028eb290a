"""What a function written in a notebook takes from svmtext (used by the assignments'
autograders: a question that asks for an implementation may not answer with the
library's own).
"""
from __future__ import annotations

import dis
import types


def _qualname(obj) -> str | None:
    if isinstance(obj, types.ModuleType):
        name = obj.__name__
    else:
        mod = getattr(obj, "__module__", None) or ""
        name = f"{mod}.{getattr(obj, '__qualname__', getattr(obj, '__name__', '?'))}"
    return name if name.split(".")[0] == "svmtext" else None


def library_calls(func, allowed=()) -> list[str]:
    """Qualified names of what ``func`` takes from ``svmtext``: the svmtext functions,
    classes and modules its code loads (global names, ``svmtext.x`` attributes, imports
    inside the function), also through the notebook functions it calls and its nested
    functions. Names starting with one of ``allowed`` (e.g. ``"svmtext.kernels"``) are
    left out.

    >>> import svmtext.qp
    >>> def W(alpha, K, y):
    ...     return svmtext.qp.dual_objective(alpha, K, y)
    >>> library_calls(W)
    ['svmtext.qp.dual_objective']
    """
    found, seen = set(), set()

    def walk(code, glb):
        if code in seen:
            return
        seen.add(code)
        module, imported = None, None
        for ins in dis.get_instructions(code):
            op, arg = ins.opname, ins.argval
            if op == "IMPORT_NAME":
                imported = arg if str(arg).split(".")[0] == "svmtext" else None
                if imported:
                    found.add(imported)
                module = None
            elif op == "IMPORT_FROM" and imported:
                found.discard(imported)
                found.add(f"{imported}.{arg}")
            elif op in ("LOAD_GLOBAL", "LOAD_NAME"):
                obj = glb.get(arg)
                module = None
                if isinstance(obj, types.ModuleType) and _qualname(obj):
                    module = obj
                    found.add(obj.__name__)
                elif _qualname(obj):
                    found.add(_qualname(obj))
                elif isinstance(obj, types.FunctionType):   # a helper of the notebook
                    walk(obj.__code__, obj.__globals__)
            elif op in ("LOAD_ATTR", "LOAD_METHOD") and module is not None:
                found.discard(module.__name__)
                attr = getattr(module, arg, None)
                if isinstance(attr, types.ModuleType):
                    module = attr
                    found.add(attr.__name__)
                else:
                    found.add(_qualname(attr) or f"{module.__name__}.{arg}")
                    module = None
            else:
                module = None if op not in ("PRECALL", "CACHE", "EXTENDED_ARG") else module
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                walk(const, glb)

    walk(func.__code__, func.__globals__)
    return sorted(q for q in found if not any(q.startswith(a) for a in allowed))
