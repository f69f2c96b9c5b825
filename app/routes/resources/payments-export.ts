import { streamPaymentLines } from '#app/models/reports/exports.server.ts'
import { ExportRangeSchema, paymentCells, paymentColumns, paymentsFileName } from '#app/models/reports/exports.ts'
import { textResponse } from '#app/services/storage/file-response.server.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { csvDownload } from './+shared/csv-download.server.ts'
import type { Route } from './+types/payments-export'

/**
 * The accountant's payments and refunds of a range of days as a CSV download, for admins: days and
 * times in the admin's time zone (their profile's, else UTC), as on the overview (docs/decisions/066).
 */
export async function loader({ request }: Route.LoaderArgs) {
	const admin = await requireAdmin(request)
	const range = ExportRangeSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams))
	if (!range.success) return textResponse(`Payments export: ${range.error.issues.map((issue) => issue.message).join('. ')}.`, 400)
	const timeZone = admin.timeZone ?? 'UTC'
	return csvDownload({
		fileName: paymentsFileName(range.data),
		header: paymentColumns(timeZone),
		lines: streamPaymentLines(getDb(), { ...range.data, timeZone }),
		cells: paymentCells(timeZone),
	})
}
