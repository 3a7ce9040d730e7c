"""cdecl.py: the file-scope declarations of a public C header, enough for our headers
(test/unit/boundary): functions and extern variables, with the line each starts on and
whether it carries the export macro. Comments, preprocessor lines, typedefs, struct and
enum definitions and static inline functions are skipped."""
import re

_CPP_GUARD = re.compile(r'#ifdef __cplusplus\s*\n\s*(?:extern "C" \{|\})\s*\n\s*#endif')
_NAME = re.compile(r'\b([A-Za-z_]\w*)\s*\(')


def _blank(m):
    return re.sub(r'[^\n]', ' ', m.group(0))


def declarations(text, macro):
    """[(name, line, marked)] of the functions and extern variables declared at file
    scope; `marked`: the declaration starts with `macro`."""
    text = _CPP_GUARD.sub(_blank, text)
    text = re.sub(r'/\*.*?\*/', _blank, text, flags=re.S)
    text = re.sub(r'//[^\n]*', _blank, text)
    text = re.sub(r'^[ \t]*#(?:[^\n]*\\\n)*[^\n]*', _blank, text, flags=re.M)
    out = []
    depth = 0
    start = 0
    for i, ch in enumerate(text):
        if ch in '{(':
            depth += 1
        elif ch in '})':
            depth -= 1
        if depth:
            continue
        end = None
        if ch == ';':
            end = i
        elif ch == '}':
            head = text[start:i].split('{', 1)[0]
            if '(' in head:  # a function body: static inline
                end = i
        if end is None:
            continue
        stmt = text[start:end + 1]
        line = text.count('\n', 0, start) + 1 + (len(stmt) - len(stmt.lstrip()) and
                                                  stmt[:len(stmt) - len(stmt.lstrip())].count('\n'))
        start = end + 1
        words = stmt.split()
        if not words or words[0] in ('typedef',) or 'static' in words:
            continue
        if words[0] in ('struct', 'enum', 'union') and '{' in stmt:
            continue
        marked = words[0] == macro
        m = _NAME.search(stmt)
        if m and m.group(1) != '__attribute__':
            out.append((m.group(1), line, marked))
        elif words[0] in ('extern', macro):
            name = re.findall(r'([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*;', stmt)
            if name:
                out.append((name[-1], line, marked))
    return out
