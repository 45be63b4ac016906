import { describe, expect, it } from 'vitest';
import { analyzeChange } from './analyze.js';
import type { FileChange } from './types.js';

async function testFindingsOf(files: FileChange[]): Promise<string[]> {
  const { findings } = await analyzeChange({ files });
  return findings
    .filter((item) => item.kind === 'test_removed' || item.kind === 'test_replaced')
    .map((item) => `${item.kind} ${item.name ?? ''}`);
}

const header = 'package level\n\nimport "testing"\n\n';
const unmarshal = (name: string, extra = '') =>
  `func ${name}(t *testing.T) {\n\tvar l Level\n\terr := l.UnmarshalText([]byte("info"))\n\tif err != nil {\n\t\tt.Fatalf("unmarshal: %v", err)\n\t}\n\tif l != InfoLevel {\n\t\tt.Errorf("got %v, want info", l)\n\t}${extra}\n}\n`;
const other =
  'func TestParse(t *testing.T) {\n\tif _, err := Parse("warn"); err != nil {\n\t\tt.Fatal(err)\n\t}\n}\n';

describe('tests moved to another file of the change', () => {
  it('reads a test moved to a new file under a longer name, its assertions intact, as moved', async () => {
    const files: FileChange[] = [
      {
        path: 'logger_test.go',
        before: `${header}${unmarshal('TestUnmarshalText')}\n${other}`,
        after: `${header}${other}`,
      },
      {
        path: 'level_test.go',
        before: null,
        after: `${header}${unmarshal('TestLevelUnmarshalText', '\n\t_ = l.String()')}`,
      },
    ];
    expect(await testFindingsOf(files)).toEqual(['test_replaced TestUnmarshalText']);
  });

  it('still reports a test moved to another file that lost its assertions on the way', async () => {
    const hollow =
      'func TestLevelUnmarshalText(t *testing.T) {\n\tvar l Level\n\terr := l.UnmarshalText([]byte("info"))\n\t_ = err\n\t_ = l\n}\n';
    const files: FileChange[] = [
      {
        path: 'logger_test.go',
        before: `${header}${unmarshal('TestUnmarshalText')}\n${other}`,
        after: `${header}${other}`,
      },
      { path: 'level_test.go', before: null, after: `${header}${hollow}` },
    ];
    expect(await testFindingsOf(files)).toEqual(['test_removed TestUnmarshalText']);
  });

  it('reads a reworked test moved to another file as moved when its name keeps a word of the old one', async () => {
    const reworked = (name: string) =>
      `func ${name}(t *testing.T) {\n\tfor _, text := range []string{"info", "INFO"} {\n\t\tvar l Level\n\t\terr := l.UnmarshalText([]byte(text))\n\t\tif err != nil {\n\t\t\tt.Fatalf("unmarshal: %v", err)\n\t\t}\n\t\tif l != InfoLevel {\n\t\t\tt.Errorf("got %v, want info", l)\n\t\t}\n\t\tif s := l.String(); s != "info" {\n\t\t\tt.Errorf("printed %q back", s)\n\t\t}\n\t}\n}\n`;
    const moved = (name: string): FileChange[] => [
      {
        path: 'logger_test.go',
        before: `${header}${unmarshal('TestUnmarshalText')}\n${other}`,
        after: `${header}${other}`,
      },
      { path: 'level_test.go', before: null, after: `${header}${reworked(name)}` },
    ];
    expect(await testFindingsOf(moved('TestLevelUnmarshalsAnyCase'))).toEqual([
      'test_replaced TestUnmarshalText',
    ]);
    expect(await testFindingsOf(moved('TestLevelFromConfig'))).toEqual(['test_removed TestUnmarshalText']);
  });
});
