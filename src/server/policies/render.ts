import MarkdownIt from "markdown-it";

/**
 * Markdown to HTML for the owner's policies (docs/decisions/014-seller-and-versioned-policies.md):
 * CommonMark with tables, raw HTML shown as text (`html: false`), and markdown-it's own refusal of
 * javascript:, vbscript:, file: and data: links other than images.
 */
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

export function renderPolicyMarkdown(body: string): string {
  return markdown.render(body);
}
