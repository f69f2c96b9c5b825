import { getInputProps, getSelectProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, href } from 'react-router'
import {
	AttendanceSection,
	CompletionSection,
	EnrolmentSection,
	RevenueSection,
	SeatsSection,
} from '#app/components/reports/overview-sections.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Field, SelectField } from '#app/components/ui/field.tsx'
import { getOverview } from '#app/models/reports/overview.server.ts'
import { defaultRangeStart, formatDay, overviewRangeSchema, todayIn } from '#app/models/reports/overview.ts'
import { requireStaff } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import type { Route } from './+types/overview'

const OVERVIEW_PATH = href('/dashboard/admin/overview')

/**
 * The school's figures for a range (issue 43): every course for an admin, with the money; an
 * instructor's own courses without it (docs/decisions/065). Bad dates answer 400 with the form's
 * messages and no figures.
 */
export async function loader({ request }: Route.LoaderArgs) {
	const staff = await requireStaff(request)
	const timeZone = staff.timeZone ?? 'UTC'
	const today = todayIn(timeZone)
	const submission = parseWithZod(new URL(request.url).searchParams, { schema: overviewRangeSchema(today) })
	const page = { isAdmin: staff.isAdmin, timeZone, defaults: { from: defaultRangeStart(today), to: today, group: 'month' as const } }
	if (submission.status !== 'success') return data({ ...page, result: submission.reply(), overview: null }, { status: 400 })
	const overview = await getOverview(getDb(), staff, { ...submission.value, timeZone })
	return { ...page, result: undefined, overview }
}

export default function Overview({ loaderData }: Route.ComponentProps) {
	const { isAdmin, timeZone, defaults, result, overview } = loaderData
	const range = overview?.range ?? defaults
	// Checked by the loader only: a GET form's answer is the page itself, with the field's message.
	// (Conform's submit handler stopped React Router's GET submission, so the form takes only its id.)
	const [form, fields] = useForm({ id: 'overview-range', lastResult: result, defaultValue: range })
	const moneyPeriods = overview?.periods.flatMap((period) => (period.money ? [{ ...period, money: period.money }] : [])) ?? []
	return (
		<>
			<div>
				<h1 className="text-2xl font-bold text-ink">Overview</h1>
				<p className="mt-1 text-sm text-slate-600">
					{isAdmin ? 'The whole school' : 'The courses you teach'}
					{overview ? `, ${formatDay(overview.range.from)} to ${formatDay(overview.range.to)}` : ''}. Days are in {timeZone}.
				</p>
			</div>
			<Form
				method="get"
				action={OVERVIEW_PATH}
				id={form.id}
				className="grid items-start gap-4 sm:grid-cols-[repeat(3,minmax(0,12rem))_auto]"
			>
				<Field
					label="From"
					help="The first day (YYYY-MM-DD)."
					errors={fields.from.errors}
					inputProps={getInputProps(fields.from, { type: 'date' })}
				/>
				<Field
					label="To"
					help="The last day, today if empty."
					errors={fields.to.errors}
					inputProps={getInputProps(fields.to, { type: 'date' })}
				/>
				<SelectField label="Group by" errors={fields.group.errors} selectProps={getSelectProps(fields.group)}>
					<option value="month">Month</option>
					<option value="week">Week</option>
				</SelectField>
				<Button type="submit" variant="outline" className="justify-self-start sm:mt-6">
					Show figures
				</Button>
			</Form>
			{overview ? (
				<>
					<EnrolmentSection periods={overview.periods} group={overview.range.group} />
					{overview.planBalance ? (
						<RevenueSection periods={moneyPeriods} group={overview.range.group} planBalance={overview.planBalance} />
					) : null}
					<SeatsSection courses={overview.courses} />
					<AttendanceSection sessions={overview.sessions} timeZone={timeZone} />
					<CompletionSection courses={overview.courses} />
				</>
			) : (
				<Alert tone="error">The figures are shown once the dates above are corrected.</Alert>
			)}
		</>
	)
}

export const meta: Route.MetaFunction = () => pageTitle('Overview')

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
