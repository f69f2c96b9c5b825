import { streamPaymentLines } from '#app/models/reports/exports.server.ts'
import { ExportRangeSchema, PAYMENT_COLUMNS, paymentCells, paymentsFileName, rangeInstants } from '#app/models/reports/exports.ts'
import { textResponse } from '#app/services/storage/file-response.server.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { csvDownload } from './+shared/csv-download.server.ts'
import type { Route } from './+types/payments-export'

/** The accountant's payments and refunds of a range of days as a CSV download, for admins (docs/decisions/066). */
export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	const range = ExportRangeSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams))
	if (!range.success) return textResponse(`Payments export: ${range.error.issues.map((issue) => issue.message).join('. ')}.`, 400)
	return csvDownload({
		fileName: paymentsFileName(range.data),
		header: PAYMENT_COLUMNS,
		lines: streamPaymentLines(getDb(), rangeInstants(range.data)),
		cells: paymentCells,
	})
}
