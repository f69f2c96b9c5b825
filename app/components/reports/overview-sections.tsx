import type { ReactNode } from 'react'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { ScrollingTable } from '#app/components/ui/table.tsx'
import {
	attendanceRate,
	type CourseFigures,
	formatDay,
	type OverviewGrouping,
	type OverviewPeriod,
	type PlanBalance,
	percent,
	periodLabel,
	periodTick,
	type SessionAttendance,
} from '#app/models/reports/overview.ts'
import { formatMoney } from '#app/utils/money.ts'
import { CapacityChart, ColumnChart } from './charts.tsx'

/*
 * The overview's sections (issue 43): each a heading, a chart where one helps, then its numbers as a
 * table, in that order, so a screen reader, a text browser and a printout read the same figures.
 */

const compactMoney = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', notation: 'compact', maximumFractionDigits: 1 })
const cell = 'px-4 py-2 text-right tabular-nums'
const headCell = 'px-4 py-2 font-semibold'

/** A card of figures; `empty`, when the range has none, is said in their place. */
function Section({
	title,
	description,
	empty,
	children,
}: {
	title: string
	description: ReactNode
	empty?: string | null
	children: ReactNode
}) {
	return (
		<Card>
			<CardHeader>
				<CardTitle>{title}</CardTitle>
				<CardDescription>{description}</CardDescription>
			</CardHeader>
			<CardContent className="space-y-4">{empty ? <p className="text-sm text-slate-700">{empty}</p> : children}</CardContent>
		</Card>
	)
}

/** The figures' table: `children` are its body's rows, `foot` its totals row. */
function FigureTable({ caption, columns, foot, children }: { caption: string; columns: string[]; foot?: ReactNode; children: ReactNode }) {
	return (
		<ScrollingTable label={caption} className="rounded-lg border border-slate-200">
			<table className="min-w-full text-left text-sm">
				<caption className="px-4 py-2 text-left font-medium text-ink">{caption}</caption>
				<thead className="border-y border-slate-200 bg-slate-50 text-slate-700">
					<tr>
						{columns.map((column, index) => (
							<th key={column} scope="col" className={index === 0 ? headCell : `${headCell} text-right`}>
								{column}
							</th>
						))}
					</tr>
				</thead>
				<tbody className="divide-y divide-slate-100">{children}</tbody>
				{foot ? <tfoot className="border-t border-slate-300 font-semibold">{foot}</tfoot> : null}
			</table>
		</ScrollingTable>
	)
}

function RowHead({ children }: { children: ReactNode }) {
	return (
		<th scope="row" className="px-4 py-2 text-left font-medium whitespace-nowrap text-ink">
			{children}
		</th>
	)
}

function ratio(part: number, whole: number) {
	const value = percent(part, whole)
	return value === null ? '—' : `${value}%`
}

function sum<Row>(rows: Row[], pick: (row: Row) => number) {
	return rows.reduce((total, row) => total + pick(row), 0)
}

export function EnrolmentSection({ periods, group }: { periods: OverviewPeriod[]; group: OverviewGrouping }) {
	const unit = group === 'month' ? 'month' : 'week'
	const total = sum(periods, (period) => period.enrolments)
	return (
		<Section title="Enrolments" description={`New enrolments by ${unit}, pending ones left out.`}>
			<ColumnChart
				title={`Enrolments by ${unit}`}
				description={`A bar for each ${unit}: ${total} enrolments in all, at most ${Math.max(0, ...periods.map((period) => period.enrolments))} in one ${unit}. The table below gives each ${unit}'s number.`}
				categories={periods.map((period) => ({ key: period.start, tick: periodTick(period.start, group) }))}
				series={[{ name: 'Enrolments', values: periods.map((period) => period.enrolments), mark: 'solid' }]}
				formatValue={(value) => String(value)}
				wholeNumbers
			/>
			<FigureTable
				caption={`Enrolments by ${unit}`}
				columns={[group === 'month' ? 'Month' : 'Week', 'Enrolments']}
				foot={
					<tr>
						<RowHead>Total</RowHead>
						<td className={cell}>{total}</td>
					</tr>
				}
			>
				{periods.map((period) => (
					<tr key={period.start}>
						<RowHead>{periodLabel(period.start, group)}</RowHead>
						<td className={cell}>{period.enrolments}</td>
					</tr>
				))}
			</FigureTable>
		</Section>
	)
}

type MoneyPeriod = OverviewPeriod & { money: NonNullable<OverviewPeriod['money']> }

export function RevenueSection({
	periods,
	group,
	planBalance,
}: {
	periods: MoneyPeriod[]
	group: OverviewGrouping
	planBalance: PlanBalance
}) {
	const unit = group === 'month' ? 'month' : 'week'
	const total = (pick: (money: MoneyPeriod['money']) => number) => sum(periods, (period) => pick(period.money))
	const columns = [
		group === 'month' ? 'Month' : 'Week',
		'Paid',
		'Discounts',
		'Refunded',
		'Net',
		'Plan instalments collected',
		'Plan instalments outstanding',
	]
	const amounts = (money: MoneyPeriod['money']) => [
		money.paidCents,
		money.discountCents,
		money.refundedCents,
		money.netCents,
		money.planCollectedCents,
		money.planOutstandingCents,
	]
	return (
		<Section
			title="Revenue"
			description={
				<>
					Paid is what reached the school (checkouts, and plan instalments after the first); discounts are what promotion codes took off
					those checkouts; refunded is what went back, on the day the refund was made; net is paid less refunded. Plan instalments collected
					include each plan's first payment, which is also in paid; outstanding ones are those due in the {unit} and not paid yet. The
					payments export lists the same money line by line: its gross less discount is paid.
				</>
			}
		>
			<ColumnChart
				title={`Paid, refunded and net by ${unit}`}
				description={`Solid bars are paid, hatched bars refunded, and the dashed line with round points the net, for each ${unit}: ${formatMoney(total((money) => money.paidCents))} paid, ${formatMoney(total((money) => money.refundedCents))} refunded, ${formatMoney(total((money) => money.netCents))} net in all. The table below gives each ${unit}'s amounts.`}
				categories={periods.map((period) => ({ key: period.start, tick: periodTick(period.start, group) }))}
				series={[
					{ name: 'Paid', values: periods.map((period) => period.money.paidCents), mark: 'solid' },
					{ name: 'Refunded', values: periods.map((period) => period.money.refundedCents), mark: 'hatched' },
					{ name: 'Net', values: periods.map((period) => period.money.netCents), mark: 'line' },
				]}
				formatValue={(cents) => compactMoney.format(cents / 100)}
			/>
			<FigureTable
				caption={`Revenue by ${unit}`}
				columns={columns}
				foot={
					<tr>
						<RowHead>Total</RowHead>
						{amounts({
							paidCents: total((money) => money.paidCents),
							discountCents: total((money) => money.discountCents),
							refundedCents: total((money) => money.refundedCents),
							netCents: total((money) => money.netCents),
							planCollectedCents: total((money) => money.planCollectedCents),
							planOutstandingCents: total((money) => money.planOutstandingCents),
						}).map((cents, index) => (
							<td key={columns[index + 1]} className={cell}>
								{formatMoney(cents)}
							</td>
						))}
					</tr>
				}
			>
				{periods.map((period) => (
					<tr key={period.start}>
						<RowHead>{periodLabel(period.start, group)}</RowHead>
						{amounts(period.money).map((cents, index) => (
							<td key={columns[index + 1]} className={cell}>
								{formatMoney(cents)}
							</td>
						))}
					</tr>
				))}
			</FigureTable>
			<p className="text-sm text-slate-700">
				Still to collect on running plans, whatever their dates: <strong>{formatMoney(planBalance.outstandingCents)}</strong> from{' '}
				{planBalance.plans} {planBalance.plans === 1 ? 'plan' : 'plans'}, of which {formatMoney(planBalance.overdueCents)} is overdue.
			</p>
		</Section>
	)
}

const NO_COURSES = 'No course runs in this range.'

function courseDates(course: CourseFigures) {
	if (!course.startDate) return 'No dates'
	return course.endDate ? `${formatDay(course.startDate)} – ${formatDay(course.endDate)}` : `From ${formatDay(course.startDate)}`
}

export function SeatsSection({ courses }: { courses: CourseFigures[] }) {
	const taken = courses.reduce((total, course) => total + course.seatsTaken, 0)
	const capacity = courses.reduce((total, course) => total + course.capacity, 0)
	return (
		<Section
			title="Seats and waitlists"
			description="Courses running in the range, or that took enrolments or made offers in it. Seats taken are enrolments holding a seat now; offers are those made in the range, with what became of them so far."
			empty={courses.length === 0 ? NO_COURSES : null}
		>
			<CapacityChart
				title="Seats taken against capacity"
				description={`A bar for each course: the outline is its capacity, the solid bar the seats taken, and the numbers follow it. ${taken} of ${capacity} seats taken over ${courses.length} ${courses.length === 1 ? 'course' : 'courses'}.`}
				rows={courses.map((course) => ({ label: course.title, taken: course.seatsTaken, capacity: course.capacity }))}
			/>
			<FigureTable
				caption="Seats and waitlist by course"
				columns={['Course', 'Dates', 'Seats taken', 'Capacity', 'Full', 'Waiting now', 'Offers made', 'Taken', 'Expired', 'Open']}
			>
				{courses.map((course) => (
					<tr key={course.id}>
						<RowHead>{course.title}</RowHead>
						<td className={`${cell} whitespace-nowrap`}>{courseDates(course)}</td>
						<td className={cell}>{course.seatsTaken}</td>
						<td className={cell}>{course.capacity}</td>
						<td className={cell}>{ratio(course.seatsTaken, course.capacity)}</td>
						<td className={cell}>{course.waiting}</td>
						<td className={cell}>{course.offersMade}</td>
						<td className={cell}>{course.offersTaken}</td>
						<td className={cell}>{course.offersExpired}</td>
						<td className={cell}>{course.offersOpen}</td>
					</tr>
				))}
			</FigureTable>
		</Section>
	)
}

export function AttendanceSection({ sessions, timeZone }: { sessions: SessionAttendance[]; timeZone: string }) {
	const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone })
	return (
		<Section
			title="Attendance"
			description="Each live session held in the range, with the statuses of the course's students; attended counts present and late."
			empty={sessions.length === 0 ? 'No live session was held in this range.' : null}
		>
			<FigureTable
				caption="Attendance by session"
				columns={['Session', 'Course', 'Present', 'Late', 'Absent', 'Excused', 'Not recorded', 'Attended']}
			>
				{sessions.map((session) => (
					<tr key={session.id}>
						<RowHead>
							Week {session.weekNumber}, <time dateTime={session.startsAt}>{when.format(new Date(session.startsAt))}</time>
						</RowHead>
						<td className="px-4 py-2 text-slate-700">{session.courseTitle}</td>
						<td className={cell}>{session.present}</td>
						<td className={cell}>{session.late}</td>
						<td className={cell}>{session.absent}</td>
						<td className={cell}>{session.excused}</td>
						<td className={cell}>{session.unrecorded}</td>
						<td className={cell}>{attendanceRate(session) === null ? '—' : `${attendanceRate(session)}%`}</td>
					</tr>
				))}
			</FigureTable>
		</Section>
	)
}

export function CompletionSection({ courses }: { courses: CourseFigures[] }) {
	return (
		<Section
			title="Completion"
			description="Every enrolment of the courses running in the range, as it stands now: completed, still active, or ended without completing."
			empty={courses.length === 0 ? NO_COURSES : null}
		>
			<FigureTable caption="Completion by course" columns={['Course', 'Enrolled', 'Completed', 'Still active', 'Ended', 'Completed share']}>
				{courses.map((course) => (
					<tr key={course.id}>
						<RowHead>{course.title}</RowHead>
						<td className={cell}>{course.enrolled}</td>
						<td className={cell}>{course.completed}</td>
						<td className={cell}>{course.active}</td>
						<td className={cell}>{course.ended}</td>
						<td className={cell}>{ratio(course.completed, course.enrolled)}</td>
					</tr>
				))}
			</FigureTable>
		</Section>
	)
}
