import fs from 'node:fs/promises'
import { createRequire } from 'node:module'
import fontkit from '@pdf-lib/fontkit'
import { PDFDocument, type PDFFont, type PDFPage, rgb } from 'pdf-lib'
import QRCode from 'qrcode'
import { formatDateOnly } from '#app/utils/misc.ts'
import { SITE_NAME } from '#app/utils/page-meta.ts'
import type { CertificateView } from './certificates.server.ts'
import { formatLiveHours } from './certificates.ts'

const require = createRequire(import.meta.url)
/** DejaVu covers Latin, Greek, Cyrillic and more: the names students really have (the standard PDF fonts cover only Latin-1). */
const FONT_FILES = {
	regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
	bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
}

let fontBytes: Promise<{ regular: Buffer; bold: Buffer }> | undefined

function loadFonts() {
	fontBytes ??= Promise.all([fs.readFile(FONT_FILES.regular), fs.readFile(FONT_FILES.bold)]).then(([regular, bold]) => ({ regular, bold }))
	return fontBytes
}

const ink = rgb(0.1, 0.15, 0.25)
const muted = rgb(0.35, 0.4, 0.5)
const brand = rgb(0.12, 0.23, 0.54)

function centered(
	page: PDFPage,
	text: string,
	{ y, font, size, color = ink }: { y: number; font: PDFFont; size: number; color?: ReturnType<typeof rgb> },
) {
	// A long name or title shrinks to fit the page's width rather than running off it.
	const maxWidth = page.getWidth() - 120
	const fitted = Math.min(size, (size * maxWidth) / font.widthOfTextAtSize(text, size))
	const width = font.widthOfTextAtSize(text, fitted)
	page.drawText(text, { x: (page.getWidth() - width) / 2, y, size: fitted, font, color })
}

/** The verification address as a QR code, drawn module by module (vector, sharp at any size). */
function drawQrCode(page: PDFPage, url: string, { x, y, size }: { x: number; y: number; size: number }) {
	const { modules } = QRCode.create(url, { errorCorrectionLevel: 'M' })
	const cell = size / modules.size
	for (let row = 0; row < modules.size; row++) {
		for (let col = 0; col < modules.size; col++) {
			if (modules.get(row, col)) {
				page.drawRectangle({ x: x + col * cell, y: y + size - (row + 1) * cell, width: cell, height: cell, color: ink })
			}
		}
	}
}

function courseDates(certificate: CertificateView) {
	if (certificate.startDate && certificate.endDate) {
		return `${formatDateOnly(certificate.startDate)} – ${formatDateOnly(certificate.endDate)}`
	}
	if (certificate.startDate) return `From ${formatDateOnly(certificate.startDate)}`
	return null
}

/**
 * The certificate as a one-page landscape PDF: the student's name, the course and its dates,
 * the live hours attended (when known), the school, the date of issue, and the verification
 * address with its QR code.
 */
export async function renderCertificatePdf(certificate: CertificateView) {
	const pdf = await PDFDocument.create()
	pdf.registerFontkit(fontkit)
	const bytes = await loadFonts()
	const regular = await pdf.embedFont(bytes.regular, { subset: true })
	const bold = await pdf.embedFont(bytes.bold, { subset: true })
	pdf.setTitle(`Certificate: ${certificate.courseTitle} — ${certificate.recipientName}`)
	pdf.setAuthor(SITE_NAME)
	pdf.setCreator(SITE_NAME)
	const page = pdf.addPage([842, 595])
	page.drawRectangle({ x: 24, y: 24, width: 794, height: 547, borderColor: brand, borderWidth: 3 })

	centered(page, SITE_NAME.toUpperCase(), { y: 500, font: bold, size: 16, color: brand })
	centered(page, 'Certificate of Completion', { y: 440, font: bold, size: 34 })
	centered(page, 'This certifies that', { y: 395, font: regular, size: 14, color: muted })
	centered(page, certificate.recipientName, { y: 350, font: bold, size: 30 })
	centered(page, 'has completed the course', { y: 310, font: regular, size: 14, color: muted })
	centered(page, certificate.courseTitle, { y: 272, font: bold, size: 22 })
	const details = [courseDates(certificate), certificate.liveMinutes === null ? null : formatLiveHours(certificate.liveMinutes)]
		.filter((line): line is string => line !== null)
		.join(' · ')
	if (details) centered(page, details, { y: 240, font: regular, size: 13, color: muted })

	const issued = `Issued ${formatDateOnly(certificate.issuedAt.slice(0, 10))} by ${SITE_NAME}`
	page.drawText(issued, { x: 60, y: 120, size: 12, font: regular, color: ink })
	page.drawText('Verify this certificate at', { x: 60, y: 96, size: 10, font: regular, color: muted })
	page.drawText(certificate.url, { x: 60, y: 80, size: 10, font: regular, color: brand })
	page.drawText(`Certificate ID ${certificate.id}`, { x: 60, y: 60, size: 9, font: regular, color: muted })
	drawQrCode(page, certificate.url, { x: 842 - 60 - 110, y: 50, size: 110 })
	return pdf.save()
}
