/**
 * The demo's sample files, made in code at seed time so the seed needs no network and
 * no tools: a PDF, a PNG chart, a Word document and an Excel workbook. Only the video is
 * a shipped file, because a playable clip cannot be encoded without a codec.
 */
import { readFile } from 'node:fs/promises'
import { crc32, deflateSync } from 'node:zlib'
import { strToU8, zipSync } from 'fflate'
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib'

export type PdfContent = {
	title: string
	subtitle: string
	sections: Array<{ heading: string; paragraphs: string[] }>
}

const PAGE_WIDTH = 612
const PAGE_HEIGHT = 792
const MARGIN = 72
const INK = rgb(0.12, 0.16, 0.22)
const MUTED = rgb(0.38, 0.42, 0.48)

/** A US-letter document with a title, headed sections and page numbers; it flows onto further pages. */
export async function samplePdf(content: PdfContent): Promise<Uint8Array> {
	const pdf = await PDFDocument.create()
	pdf.setTitle(content.title)
	pdf.setAuthor('Real Estate Mentorship')
	const regular = await pdf.embedFont(StandardFonts.Helvetica)
	const bold = await pdf.embedFont(StandardFonts.HelveticaBold)
	const width = PAGE_WIDTH - 2 * MARGIN

	let page: PDFPage = pdf.addPage([PAGE_WIDTH, PAGE_HEIGHT])
	let y = PAGE_HEIGHT - MARGIN
	const write = (text: string, font: PDFFont, size: number, spaceAfter: number, color = INK) => {
		const lineHeight = size * 1.45
		for (const line of wrapText(text, font, size, width)) {
			if (y - lineHeight < MARGIN) {
				page = pdf.addPage([PAGE_WIDTH, PAGE_HEIGHT])
				y = PAGE_HEIGHT - MARGIN
			}
			page.drawText(line, { x: MARGIN, y: y - size, size, font, color })
			y -= lineHeight
		}
		y -= spaceAfter
	}

	write(content.title, bold, 22, 4)
	write(content.subtitle, regular, 12, 18, MUTED)
	for (const section of content.sections) {
		write(section.heading, bold, 14, 4)
		for (const paragraph of section.paragraphs) write(paragraph, regular, 11, 8)
		y -= 8
	}

	const pages = pdf.getPages()
	pages.forEach((each, index) => {
		const footer = `${content.title} - page ${index + 1} of ${pages.length}`
		each.drawText(footer, { x: MARGIN, y: MARGIN / 2, size: 9, font: regular, color: MUTED })
	})
	return pdf.save()
}

function wrapText(text: string, font: PDFFont, size: number, width: number) {
	const lines: string[] = []
	let line = ''
	for (const word of text.split(/\s+/).filter(Boolean)) {
		const candidate = line ? `${line} ${word}` : word
		if (line && font.widthOfTextAtSize(candidate, size) > width) {
			lines.push(line)
			line = word
		} else {
			line = candidate
		}
	}
	if (line) lines.push(line)
	return lines
}

type Rgb = readonly [number, number, number]

/** A bar chart (one bar per value, scaled to the largest) as an 8-bit RGB PNG. */
export function sampleChartPng(values: number[], options: { width?: number; height?: number; bar?: Rgb } = {}) {
	const width = options.width ?? 640
	const height = options.height ?? 360
	const bar = options.bar ?? ([13, 148, 136] as const)
	const pixels = new Uint8Array(width * height * 3)
	const fill = (x0: number, y0: number, x1: number, y1: number, color: Rgb) => {
		for (let y = Math.max(0, y0); y < Math.min(height, y1); y++) {
			for (let x = Math.max(0, x0); x < Math.min(width, x1); x++) pixels.set(color, (y * width + x) * 3)
		}
	}

	const left = 48
	const bottom = height - 40
	const top = 32
	fill(0, 0, width, height, [248, 250, 252])
	for (let step = 0; step <= 4; step++) {
		const y = Math.round(bottom - ((bottom - top) * step) / 4)
		fill(left, y, width - 24, y + 1, [226, 232, 240])
	}
	const max = Math.max(...values, 1)
	const slot = (width - 24 - left) / values.length
	values.forEach((value, index) => {
		const x0 = Math.round(left + index * slot + slot * 0.2)
		const x1 = Math.round(left + (index + 1) * slot - slot * 0.2)
		const y0 = Math.round(bottom - ((bottom - top) * value) / max)
		fill(x0, y0, x1, bottom, bar)
		fill(x0, y0, x1, y0 + 4, [bar[0] * 0.6, bar[1] * 0.6, bar[2] * 0.6])
	})
	fill(left, top, left + 2, bottom + 2, [51, 65, 85])
	fill(left, bottom, width - 24, bottom + 2, [51, 65, 85])
	return encodePng(width, height, pixels)
}

function encodePng(width: number, height: number, rgbPixels: Uint8Array) {
	// Each scanline starts with its filter type; 0 (none) keeps the encoder trivial.
	const rowLength = width * 3
	const raw = new Uint8Array((rowLength + 1) * height)
	for (let y = 0; y < height; y++) raw.set(rgbPixels.subarray(y * rowLength, (y + 1) * rowLength), y * (rowLength + 1) + 1)
	const header = Buffer.alloc(13)
	header.writeUInt32BE(width, 0)
	header.writeUInt32BE(height, 4)
	header.set([8, 2, 0, 0, 0], 8) // 8-bit depth, truecolour, deflate, adaptive filtering, no interlace
	return new Uint8Array(
		Buffer.concat([
			Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
			pngChunk('IHDR', header),
			pngChunk('IDAT', deflateSync(raw, { level: 9 })),
			pngChunk('IEND', Buffer.alloc(0)),
		]),
	)
}

function pngChunk(type: string, data: Buffer) {
	const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data])
	const chunk = Buffer.alloc(12 + data.length)
	chunk.writeUInt32BE(data.length, 0)
	typeAndData.copy(chunk, 4)
	chunk.writeUInt32BE(crc32(typeAndData), 8 + data.length)
	return chunk
}

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
const RELATIONSHIPS_NS = 'http://schemas.openxmlformats.org/package/2006/relationships'
const OFFICE_DOCUMENT_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument'

function escapeXml(text: string) {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

/** [Content_Types].xml must be the first entry: tools identify OOXML packages by it. */
function zipPackage(parts: Record<string, string>) {
	return zipSync(Object.fromEntries(Object.entries(parts).map(([name, xml]) => [name, strToU8(XML_DECLARATION + xml)])), {
		level: 6,
	})
}

/** A minimal Word document: a title, paragraphs and an unticked checklist. */
export function sampleDocx(content: { title: string; paragraphs: string[]; checklist: string[] }) {
	const paragraph = (text: string, runProperties = '') =>
		`<w:p><w:pPr><w:spacing w:after="160"/></w:pPr><w:r>${runProperties}<w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p>`
	const body = [
		paragraph(content.title, '<w:rPr><w:b/><w:sz w:val="36"/></w:rPr>'),
		...content.paragraphs.map((text) => paragraph(text)),
		...content.checklist.map((item) => paragraph(`[  ]  ${item}`)),
	].join('')
	return zipPackage({
		'[Content_Types].xml':
			'<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
			'<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
			'<Default Extension="xml" ContentType="application/xml"/>' +
			'<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
			'</Types>',
		'_rels/.rels': `<Relationships xmlns="${RELATIONSHIPS_NS}"><Relationship Id="rId1" Type="${OFFICE_DOCUMENT_REL}" Target="word/document.xml"/></Relationships>`,
		'word/document.xml':
			'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>' +
			body +
			'<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>' +
			'</w:body></w:document>',
	})
}

export type BudgetLine = { item: string; estimated: number; actual: number }

/**
 * A one-sheet Excel workbook: Item, Estimated, Actual, Difference and a totals row.
 * Formulas carry their computed values so viewers that do not recalculate show them too.
 */
export function sampleBudgetXlsx(sheetName: string, lines: BudgetLine[]) {
	const BOLD = 1
	const MONEY = 2
	const BOLD_MONEY = 3
	const text = (ref: string, value: string, style = 0) => `<c r="${ref}" t="inlineStr" s="${style}"><is><t>${escapeXml(value)}</t></is></c>`
	const number = (ref: string, value: number, style: number, formula?: string) =>
		`<c r="${ref}" s="${style}">${formula ? `<f>${formula}</f>` : ''}<v>${value}</v></c>`
	const rows = [
		`<row r="1">${['Item', 'Estimated', 'Actual', 'Difference'].map((title, index) => text(`${'ABCD'[index]}1`, title, BOLD)).join('')}</row>`,
		...lines.map((line, index) => {
			const r = index + 2
			return (
				`<row r="${r}">${text(`A${r}`, line.item)}${number(`B${r}`, line.estimated, MONEY)}${number(`C${r}`, line.actual, MONEY)}` +
				`${number(`D${r}`, line.actual - line.estimated, MONEY, `C${r}-B${r}`)}</row>`
			)
		}),
	]
	const last = lines.length + 1
	const total = last + 1
	/** The totals row's cell of a column: the sum of its lines. */
	const totalOf = (column: string, pick: (line: BudgetLine) => number) =>
		number(
			`${column}${total}`,
			lines.reduce((acc, line) => acc + pick(line), 0),
			BOLD_MONEY,
			`SUM(${column}2:${column}${last})`,
		)
	rows.push(
		`<row r="${total}">${text(`A${total}`, 'Total', BOLD)}` +
			totalOf('B', (line) => line.estimated) +
			totalOf('C', (line) => line.actual) +
			totalOf('D', (line) => line.actual - line.estimated) +
			'</row>',
	)
	const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'
	const officeRel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
	return zipPackage({
		'[Content_Types].xml':
			'<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
			'<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
			'<Default Extension="xml" ContentType="application/xml"/>' +
			'<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
			'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
			'<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
			'</Types>',
		'_rels/.rels': `<Relationships xmlns="${RELATIONSHIPS_NS}"><Relationship Id="rId1" Type="${OFFICE_DOCUMENT_REL}" Target="xl/workbook.xml"/></Relationships>`,
		'xl/workbook.xml':
			`<workbook xmlns="${main}" xmlns:r="${officeRel}"><sheets><sheet name="${escapeXml(sheetName)}" sheetId="1" r:id="rId1"/></sheets>` +
			'<calcPr fullCalcOnLoad="1"/></workbook>',
		'xl/_rels/workbook.xml.rels':
			`<Relationships xmlns="${RELATIONSHIPS_NS}">` +
			`<Relationship Id="rId1" Type="${officeRel}/worksheet" Target="worksheets/sheet1.xml"/>` +
			`<Relationship Id="rId2" Type="${officeRel}/styles" Target="styles.xml"/></Relationships>`,
		'xl/worksheets/sheet1.xml':
			`<worksheet xmlns="${main}"><cols><col min="1" max="1" width="36" customWidth="1"/><col min="2" max="4" width="14" customWidth="1"/></cols>` +
			`<sheetData>${rows.join('')}</sheetData></worksheet>`,
		'xl/styles.xml':
			`<styleSheet xmlns="${main}"><numFmts count="1"><numFmt numFmtId="164" formatCode="&quot;$&quot;#,##0"/></numFmts>` +
			'<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
			'<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
			'<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
			'<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
			'<cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
			'<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
			'<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
			'<xf numFmtId="164" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1" applyNumberFormat="1"/></cellXfs>' +
			'<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>',
	})
}

/** A 3-second 320x180 H.264/AAC test-pattern clip, made once with ffmpeg and shipped beside this file. */
export async function sampleClassRecording() {
	return new Uint8Array(await readFile(new URL('./files/sample-class-recording.mp4', import.meta.url)))
}
