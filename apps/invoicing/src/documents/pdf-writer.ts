import PDFDocument from 'pdfkit';
import { toWinAnsi } from './win-ansi.js';

export type Font = 'Helvetica' | 'Helvetica-Bold';

export interface Cell {
  text: string;
  x: number;
  width: number;
  align?: 'left' | 'right';
  font?: Font;
  size?: number;
}

const MARGIN = 50;
/** Room kept under the content for the page footer. */
const FOOTER = 40;
const LINE_GAP = 1.5;

/**
 * A cursor over an A4 pdfkit document in the standard fonts only. Every text goes through
 * toWinAnsi (the fonts show nothing else); rows are measured before they are drawn, so a row
 * never splits across pages and the caller decides what a new page repeats.
 */
export class PdfWriter {
  readonly doc: PDFKit.PDFDocument;
  readonly left = MARGIN;
  readonly right: number;
  y = MARGIN;
  private readonly bottom: number;
  private readonly chunks: Buffer[] = [];
  private onNewPage: () => void = () => {};

  constructor(info: { title: string; author: string; createdAt: Date; language: string }) {
    this.doc = new PDFDocument({
      size: 'A4',
      margin: MARGIN,
      bufferPages: true,
      lang: info.language,
      displayTitle: true,
      // A fixed date also fixes the file ID pdfkit derives from the info: same invoice, same bytes.
      info: { Title: info.title, Author: info.author, Creator: 'Billing', CreationDate: info.createdAt },
    });
    this.doc.on('data', (chunk: Buffer) => this.chunks.push(chunk));
    this.right = this.doc.page.width - MARGIN;
    this.bottom = this.doc.page.height - MARGIN - FOOTER;
  }

  get width(): number {
    return this.right - this.left;
  }

  /** What to draw at the top of every page after the first (e.g. a table's header row). */
  repeatOnNewPage(draw: () => void): void {
    this.onNewPage = draw;
  }

  height(cell: Omit<Cell, 'x'>): number {
    this.style(cell);
    return this.doc.heightOfString(toWinAnsi(cell.text), { width: cell.width, lineGap: LINE_GAP });
  }

  /** Draws cells side by side at the cursor and moves it below the tallest. */
  row(cells: ReadonlyArray<Cell>, after = 0): void {
    const height = Math.max(0, ...cells.map((cell) => this.height(cell)));
    this.ensure(height);
    for (const cell of cells) this.draw(cell, this.y);
    this.y += height + after;
  }

  /** Draws cells at y without moving the cursor (blocks laid out in columns). */
  at(y: number, cells: ReadonlyArray<Cell>): number {
    let end = y;
    for (const cell of cells) end = Math.max(end, this.draw(cell, y));
    return end;
  }

  /** Starts a new page unless `height` still fits on this one. */
  ensure(height: number): void {
    if (this.y + height <= this.bottom) return;
    this.doc.addPage();
    this.y = MARGIN;
    this.onNewPage();
  }

  rule(weight = 0.5): void {
    this.doc.moveTo(this.left, this.y).lineTo(this.right, this.y).lineWidth(weight).strokeColor('#999999').stroke();
  }

  space(points: number): void {
    this.y += points;
  }

  /** Writes a footer on every page, e.g. "Page 1 of 2", once the page count is known. */
  footers(footer: (page: number, pages: number) => string): void {
    const { start, count } = this.doc.bufferedPageRange();
    for (let i = start; i < start + count; i++) {
      this.doc.switchToPage(i);
      // Text below the bottom margin would make pdfkit open a new page.
      this.doc.page.margins.bottom = 0;
      this.draw(
        { text: footer(i - start + 1, count), x: this.left, width: this.width, align: 'right', size: 8 },
        this.doc.page.height - MARGIN,
      );
    }
  }

  finish(): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      this.doc.on('end', () => resolve(Buffer.concat(this.chunks)));
      this.doc.on('error', reject);
      this.doc.end();
    });
  }

  private style(cell: Omit<Cell, 'x'>): void {
    this.doc.font(cell.font ?? 'Helvetica').fontSize(cell.size ?? 9);
  }

  /** Returns the y below the drawn text. */
  private draw(cell: Cell, y: number): number {
    if (cell.text === '') return y;
    const height = this.height(cell);
    this.doc.fillColor('#000000').text(toWinAnsi(cell.text), cell.x, y, {
      width: cell.width,
      align: cell.align ?? 'left',
      lineGap: LINE_GAP,
    });
    return y + height;
  }
}
