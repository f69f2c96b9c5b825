import { parseWithZod } from '@conform-to/zod/v4'
import { data, href, useNavigation } from 'react-router'
import { ConfirmDialog } from '#app/components/admin/confirm-dialog.tsx'
import { PromotionCodeForm } from '#app/components/admin/promotion-code-form.tsx'
import { LocalDate } from '#app/components/local-date.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { ButtonLink } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { RowsTable } from '#app/components/ui/rows-table.tsx'
import { TableCard } from '#app/components/ui/table.tsx'
import {
	createPromotionCodeSchema,
	DeactivatePromotionCodeSchema,
	describeDiscount,
	type PromotionCodeState,
	promotionCodeState,
	promotionCodeValues,
} from '#app/models/payments/promotion-codes.ts'
import {
	createPromotionCode,
	deactivatePromotionCode,
	getPromotionCode,
	listPromotionCodes,
} from '#app/models/payments/promotion-codes-admin.server.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { parseRowId } from '#app/utils/row-id.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/promotion-codes'

const CODES_PATH = href('/dashboard/admin/promotion-codes')

export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	const db = getDb()
	const confirm = new URL(request.url).searchParams.get('confirm') ?? ''
	const deactivateId = confirm.startsWith('deactivate-') ? parseRowId(confirm.slice('deactivate-'.length)) : null
	const [codes, courses, deactivating] = await Promise.all([
		listPromotionCodes(db),
		db.selectFrom('courses').select(['id', 'title']).orderBy('title').execute(),
		deactivateId ? getPromotionCode(db, deactivateId) : null,
	])
	return { codes, courses, deactivating: deactivating && !deactivating.deactivated_at ? deactivating : null, now: Date.now() }
}

export async function action({ request }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const formData = await readFormData(request)
	const db = getDb()
	if (formData.get('intent') === 'deactivate') {
		const submission = parseWithZod(formData, { schema: DeactivatePromotionCodeSchema })
		const done = submission.status === 'success' && (await deactivatePromotionCode(db, admin.id, submission.value.promotionCodeId))
		return done
			? redirectWithToast(CODES_PATH, { type: 'success', title: 'Promotion code deactivated' })
			: redirectWithToast(CODES_PATH, {
					type: 'error',
					title: 'Failed to deactivate promotion code',
					description: 'The code does not exist or is already deactivated.',
				})
	}
	const submission = parseWithZod(formData, { schema: createPromotionCodeSchema(new Date()) })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	const created = await createPromotionCode(db, admin.id, promotionCodeValues(submission.value))
	if (created === 'code-taken') {
		return data(
			{ result: submission.reply({ fieldErrors: { code: ['A promotion code with these letters already exists'] } }) },
			{ status: 400 },
		)
	}
	if (created === 'course-not-found') {
		return data({ result: submission.reply({ fieldErrors: { courseId: ['This course no longer exists'] } }) }, { status: 400 })
	}
	return redirectWithToast(CODES_PATH, { type: 'success', title: `Promotion code ${submission.value.code} created` })
}

const STATE_BADGES = {
	active: { tone: 'green', label: 'Active' },
	expired: { tone: 'gray', label: 'Expired' },
	'used-up': { tone: 'orange', label: 'Used up' },
	deactivated: { tone: 'red', label: 'Deactivated' },
} as const satisfies Record<PromotionCodeState, { tone: string; label: string }>

export default function PromotionCodes({ loaderData, actionData }: Route.ComponentProps) {
	const { codes, courses, deactivating, now } = loaderData
	const navigation = useNavigation()
	const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'create'
	return (
		<>
			{deactivating ? (
				<ConfirmDialog
					title="Deactivate Promotion Code"
					description={`Deactivate ${deactivating.code}? Nobody can use it from now on; uses already made, and checkouts already open with it, keep their discount. This cannot be undone.`}
					closeTo={CODES_PATH}
					fields={{ intent: 'deactivate', promotionCodeId: String(deactivating.id) }}
					confirmLabel="Deactivate"
					busyLabel="Deactivating..."
				/>
			) : null}
			<h1 className="text-2xl font-bold text-ink">Promotion Codes</h1>
			{codes.length === 0 ? (
				<Card className="p-8 text-center text-slate-700">No promotion codes yet. Create the first one below.</Card>
			) : (
				<TableCard>
					<RowsTable caption="Promotion codes" columns={['Code', 'Discount', 'Course', 'Valid until', 'Uses', 'Status', 'Actions']}>
						{codes.map((code) => {
							const badge = STATE_BADGES[promotionCodeState(code, now)]
							return (
								<tr key={code.id}>
									<td className="px-4 py-3 font-mono font-semibold text-ink">{code.code}</td>
									<td className="px-4 py-3 whitespace-nowrap text-slate-700">{describeDiscount(code)}</td>
									<td className="px-4 py-3 text-slate-700">{code.courseTitle ?? 'Any course'}</td>
									<td className="px-4 py-3 whitespace-nowrap text-slate-700">
										{code.expiresAt ? <LocalDate value={code.expiresAt} time /> : 'No end'}
									</td>
									<td className="px-4 py-3 whitespace-nowrap text-slate-700">
										{code.uses} of {code.maxUses ?? 'unlimited'}
										{code.reserved > 0 ? <span className="block text-xs text-slate-600">{code.reserved} in open checkouts</span> : null}
										{code.overLimit > 0 ? (
											<span className="block text-xs font-semibold text-red-800">
												{code.overLimit} over the limit: paid after their checkout ran out (see the audit log)
											</span>
										) : null}
									</td>
									<td className="px-4 py-3">
										<Badge tone={badge.tone}>{badge.label}</Badge>
									</td>
									<td className="px-4 py-3">
										{code.deactivatedAt ? null : (
											<ButtonLink to={`${CODES_PATH}?confirm=deactivate-${code.id}`} preventScrollReset size="sm" variant="destructive">
												Deactivate<span className="sr-only"> {code.code}</span>
											</ButtonLink>
										)}
									</td>
								</tr>
							)
						})}
					</RowsTable>
				</TableCard>
			)}
			<PromotionCodeForm action={CODES_PATH} courses={courses} lastResult={actionData?.result} saving={saving} />
		</>
	)
}

export const meta: Route.MetaFunction = () => pageTitle('Promotion Codes')

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
