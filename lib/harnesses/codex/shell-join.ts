/** An argv as Codex prints it on stdout: bare words, else single quotes, else double quotes. */
export function shellJoin(argv: unknown[]): string {
  return argv
    .map((word) => {
      const text = String(word);
      if (/^[\w@%+=:,./-]+$/.test(text)) return text;
      if (!text.includes("'")) return `'${text}'`;
      return `"${text.replace(/(["\\$`])/g, '\\$1')}"`;
    })
    .join(' ');
}
