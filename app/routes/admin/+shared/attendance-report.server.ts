import { buffer } from 'node:stream/consumers'
import { ATTENDANCE_MESSAGES, MAX_REPORT_BYTES } from '#app/models/sessions/attendance.ts'
import { type ParticipantRow, parseParticipantReport, ReportError } from '#app/models/sessions/participant-reports.server.ts'
import { MultipartError, parseMultipartForm, UploadTooLargeError } from '#app/utils/multipart.server.ts'

export type ReceivedReport = { ok: true; fileName: string; rows: ParticipantRow[] } | { ok: false; status: number; message: string }

/**
 * Receives a meeting report upload (field `report`, at most MAX_REPORT_BYTES, refused while it
 * streams when larger) and reads its participant rows. Nothing is stored: the file lives in memory
 * until it is read, and only its outcome is kept for the preview (docs/decisions/048).
 */
export async function receiveReport(request: Request): Promise<ReceivedReport> {
	let report: { fileName: string; bytes: Buffer } | undefined
	try {
		await parseMultipartForm(request, {
			maxFileBytes: MAX_REPORT_BYTES,
			onFile: async (file) => {
				const bytes = await buffer(file.stream)
				if (file.fieldName === 'report') report = { fileName: file.fileName, bytes }
			},
		})
	} catch (error) {
		if (error instanceof UploadTooLargeError) return { ok: false, status: 413, message: ATTENDANCE_MESSAGES.tooLarge }
		if (error instanceof MultipartError) return { ok: false, status: 400, message: `The upload could not be read (${error.message}).` }
		throw error
	}
	if (!report || report.bytes.length === 0) return { ok: false, status: 400, message: ATTENDANCE_MESSAGES.noFile }
	const text = new TextDecoder('utf-8').decode(report.bytes)
	if (text.includes('\u0000')) return { ok: false, status: 400, message: 'This is not a CSV file: choose the participant report (.csv).' }
	try {
		return { ok: true, fileName: report.fileName, rows: parseParticipantReport(text) }
	} catch (error) {
		if (error instanceof ReportError) return { ok: false, status: 400, message: error.message }
		throw error
	}
}
