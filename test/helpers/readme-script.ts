/** How test/readme.test.ts turns README.md into one bash script (the conventions are stated there and in the README). */

interface Block {
  /** The fence's info string: language, then attributes (`yaml file=stack.yaml`). */
  info: string;
  /** README line of the block's first line of content. */
  line: number;
  text: string;
}

/** Fence labels that run (bash), and those shown only: installs, other shells, files, listings. */
const RUN = new Set(['sh', 'bash']);
const SHOWN = new Set(['console', 'zsh', 'fish', 'yaml', 'json', 'text', '']);

const label = (b: Block): string => b.info.split(/\s+/)[0];

/** The fenced blocks of a Markdown text, in order. */
function fencedBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  let open: Block | undefined;
  markdown.split('\n').forEach((l, i) => {
    const fence = /^(`{3,})(.*)$/.exec(l);
    if (!open && fence) open = { info: fence[2].trim(), line: i + 2, text: '' };
    else if (open && /^`{3,}\s*$/.test(l)) {
      blocks.push(open);
      open = undefined;
    } else if (open) open.text += l + '\n';
  });
  return blocks;
}

/** The bash script that follows the README, and the README line of each of its lines (index = script line - 1). */
export function readmeScript(markdown: string): { script: string; readmeLines: number[] } {
  const out: string[] = [];
  const readmeLines: number[] = [];
  const add = (text: string, line: number) => {
    out.push(text);
    readmeLines.push(line);
  };
  add('set -eo pipefail', 0);
  add(`trap 'echo "README-FAILED line=$LINENO exit=$? command=$BASH_COMMAND" >&2' ERR`, 0);
  for (const b of fencedBlocks(markdown)) {
    const [lang, ...attrs] = b.info.split(/\s+/);
    const file = attrs.map((a) => /^file=(.+)$/.exec(a)?.[1]).find(Boolean);
    const lines = b.text.replace(/\n$/, '').split('\n');
    if (RUN.has(lang)) lines.forEach((l, i) => add(l, b.line + i));
    else if (file) {
      add(`cat > '${file}' <<'SVC_README_EOF'`, b.line - 1);
      lines.forEach((l, i) => add(l, b.line + i));
      add('SVC_README_EOF', b.line + lines.length);
    }
  }
  return { script: out.join('\n') + '\n', readmeLines };
}

/** Blocks whose label says neither run nor shown: each must choose (README comment), so none is skipped by accident. */
export function unlabelled(markdown: string): string[] {
  return fencedBlocks(markdown)
    .filter((b) => !RUN.has(label(b)) && !SHOWN.has(label(b)))
    .map((b) => `README.md:${b.line - 1} \`\`\`${b.info}`);
}
