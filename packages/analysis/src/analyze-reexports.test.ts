import { describe, expect, it } from 'vitest';
import { analyzeChange } from './analyze.js';
import type { FileChange } from './types.js';

/** The public names a change is found to remove, as `name (file)`, sorted. */
async function removedNames(...files: FileChange[]): Promise<string[]> {
  const { findings } = await analyzeChange({ files });
  return findings
    .filter((item) => item.kind === 'export_removed')
    .map((item) => `${item.name} (${item.file})`)
    .sort();
}

const change = (path: string, before: string, after: string): FileChange => ({ path, before, after });

const pyInit = (names: string[], all = names) =>
  `from ._shapes import (\n${names.map((name) => `    ${name},\n`).join('')})\n\n__all__ = [\n${all.map((name) => `    "${name}",\n`).join('')}]\n`;

describe('public names offered through re-exports', () => {
  it.each([
    [
      'a Python package that renames a name it imports and lists in __all__',
      change('geo/__init__.py', pyInit(['area', 'perimeter']), pyInit(['area', 'circumference'])),
      ['perimeter (geo/__init__.py)'],
    ],
    [
      'a Python module that drops a name it imports from a private module and lists in __all__',
      change(
        'geo/measures.py',
        'from ._impl import NOTHING, chain\n\n__all__ = ["chain", "scale"]\n\n\ndef scale(x):\n    return x\n',
        'from ._impl import NOTHING, pipe\n\n__all__ = ["pipe", "scale"]\n\n\ndef scale(x):\n    return x\n',
      ),
      ['chain (geo/measures.py)'],
    ],
    [
      'a Python package without __all__ that stops importing a name from its own modules',
      change(
        'src/geo/__init__.py',
        'from .shapes import Circle, Square\nfrom geo.units import metre, inch\n',
        'from .shapes import Circle\nfrom geo.units import metre\n',
      ),
      ['Square (src/geo/__init__.py)', 'inch (src/geo/__init__.py)'],
    ],
    [
      'a Rust crate that renames a type it re-exports',
      change(
        'src/lib.rs',
        'mod geometric;\npub use self::geometric::{Error as GeoError, Geo};\npub use self::sphere::SphereSurface;\n',
        'mod geometric;\npub use self::geometric::{Error as GeoError, Geometric};\npub use self::sphere::Sphere;\n',
      ),
      ['Geo (src/lib.rs)', 'SphereSurface (src/lib.rs)'],
    ],
    [
      'an index file that drops a namespace re-export',
      change(
        'src/index.ts',
        "export * as shapes from './shapes';\nexport { area } from './area';\n",
        "export { area } from './area';\n",
      ),
      ['shapes (src/index.ts)'],
    ],
  ])('reports %s', async (_name, file, expected) => {
    expect(await removedNames(file)).toEqual(expected);
  });

  it.each([
    [
      'a Python package that stops importing from the standard library',
      change(
        'geo/__init__.py',
        'import os\nfrom typing import Any\nfrom .shapes import Circle\n',
        'from .shapes import Circle\n',
      ),
    ],
    [
      'a Python module without __all__ that stops importing a name',
      change(
        'geo/measures.py',
        'from .shapes import Circle, Square\n\n\ndef area(shape):\n    return 0\n',
        'from .shapes import Circle\n\n\ndef area(shape):\n    return 0\n',
      ),
    ],
    [
      'a Python package that imports a private name no more',
      change('geo/__init__.py', 'from ._shapes import Circle, _registry\n', 'from ._shapes import Circle\n'),
    ],
    [
      'a Python package that reorders __all__ and imports a name from another module',
      change(
        'geo/__init__.py',
        'from .shapes import Circle, Square\n\n__all__ = ["Circle", "Square"]\n',
        'from .shapes import Circle\nfrom .squares import Square\n\n__all__ = ["Square", "Circle"]\n',
      ),
    ],
    [
      'a Rust crate that re-exports a name from another module, or a private or glob import goes',
      change(
        'src/lib.rs',
        'pub use self::a::Shape;\nuse self::b::Helper;\npub(crate) use self::c::Inner;\npub use self::d::*;\n',
        'pub use self::e::Shape;\npub use self::d::*;\n',
      ),
    ],
  ])('does not report %s', async (_name, file) => {
    expect(await removedNames(file)).toEqual([]);
  });

  it('reports a renamed public name once, though the package and its module both offered it', async () => {
    const names = await removedNames(
      change('geo/__init__.py', pyInit(['area', 'perimeter']), pyInit(['area', 'circumference'])),
      change(
        'geo/shapes.py',
        'def area(s):\n    return s\n\n\ndef perimeter(s):\n    return s\n',
        'def area(s):\n    return s\n\n\ndef circumference(s):\n    return s\n',
      ),
    );
    expect(names.map((name) => name.split(' ')[0])).toEqual(['perimeter']);
  });

  it('reports a class its package re-exports as the class it is, where it was declared', async () => {
    const { findings } = await analyzeChange({
      files: [
        change('geo/__init__.py', pyInit(['Circle', 'Square']), pyInit(['Circle'])),
        change(
          'geo/shapes.py',
          'class Circle:\n    pass\n\n\nclass Square:\n    pass\n',
          'class Circle:\n    pass\n',
        ),
      ],
    });
    const removed = findings.filter((item) => item.kind === 'export_removed');
    expect(removed.map(({ pattern, severity, file, name }) => ({ pattern, severity, file, name }))).toEqual([
      { pattern: 'export.class_removed', severity: 'high', file: 'geo/shapes.py', name: 'Square' },
    ]);
  });
});
