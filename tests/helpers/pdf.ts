import { PDFParse } from "pdf-parse";

/** The text of a PDF as a reader would select it, pages joined. */
export async function pdfText(pdf: Buffer | Uint8Array): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(pdf) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

/** The base names of the fonts a PDF uses, and how many font programs it embeds. */
export function pdfFonts(pdf: Buffer): { names: string[]; embedded: number } {
  const raw = pdf.toString("latin1");
  const names = [...raw.matchAll(/\/BaseFont\s*\/([^\s/<>\]]+)/g)].map((match) => match[1] ?? "");
  const embedded = [...raw.matchAll(/\/FontFile[23]?\s/g)].length;
  return { names, embedded };
}
