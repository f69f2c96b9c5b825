import { scaleBand, scaleLinear } from 'd3-scale'
import { line } from 'd3-shape'
import { type ReactNode, type SVGProps, useId } from 'react'

/*
 * Charts drawn on the server as SVG (issue 43): d3-scale places every bar, tick and point and
 * d3-shape draws the lines, React writes the markup. Each chart is an image with a title and a
 * description; its numbers follow it as a table. Series differ by more than colour: a solid bar, a
 * hatched bar, a dashed line with round points, each named in a legend drawn with the same marks.
 * The colours are dark enough for 3:1 against white and the page's text colours for text.
 */

const COLOURS = { solid: '#1b5e46', hatched: '#b91c1c', line: '#13212b', axis: '#475569', grid: '#e2e8f0' }
const FONT = 12
const MARGIN = { top: 16, right: 16, bottom: 36, left: 64 }

export type ColumnSeries = { name: string; values: number[]; mark: 'solid' | 'hatched' | 'line' }

/** A unique, url()-safe prefix for the ids of one chart's title, description and patterns. */
function useChartIds() {
	const prefix = `chart-${useId().replace(/[^a-zA-Z0-9]/g, '')}`
	return { title: `${prefix}-title`, desc: `${prefix}-desc`, hatch: `${prefix}-hatch` }
}

function ChartFrame({
	width,
	height,
	title,
	description,
	ids,
	children,
}: {
	width: number
	height: number
	title: string
	description: string
	ids: ReturnType<typeof useChartIds>
	children: ReactNode
}) {
	return (
		// Drawn at its own size: a phone scrolls it sideways rather than shrinking its text.
		<section
			aria-label={`${title} (chart)`}
			tabIndex={0}
			className="overflow-x-auto focus-visible:outline-2 focus-visible:outline-brand-600"
		>
			<svg
				role="img"
				aria-labelledby={`${ids.title} ${ids.desc}`}
				width={width}
				height={height}
				viewBox={`0 0 ${width} ${height}`}
				className="block max-w-none"
				fontFamily="inherit"
				fontSize={FONT}
			>
				<title id={ids.title}>{title}</title>
				<desc id={ids.desc}>{description}</desc>
				<defs>
					<pattern id={ids.hatch} width={6} height={6} patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
						<rect width={6} height={6} fill="#fff" />
						<line x1={0} y1={0} x2={0} y2={6} stroke={COLOURS.hatched} strokeWidth={3} />
					</pattern>
				</defs>
				{children}
			</svg>
		</section>
	)
}

/**
 * A label in the chart, followed by a space outside it: the space draws nothing, but a text browser,
 * which prints an SVG's text as it stands, then reads "Jan 2026 Feb 2026" rather than "Jan 2026Feb 2026".
 */
function Label(props: SVGProps<SVGTextElement>) {
	return (
		<>
			<text {...props} />{' '}
		</>
	)
}

function LegendMark({ mark, hatch }: { mark: ColumnSeries['mark']; hatch: string }) {
	if (mark === 'line') {
		return (
			<>
				<line x1={0} y1={6} x2={18} y2={6} stroke={COLOURS.line} strokeWidth={2} strokeDasharray="4 3" />
				<circle cx={9} cy={6} r={3.5} fill="#fff" stroke={COLOURS.line} strokeWidth={2} />
			</>
		)
	}
	return (
		<rect
			width={12}
			height={12}
			fill={mark === 'solid' ? COLOURS.solid : `url(#${hatch})`}
			stroke={mark === 'solid' ? COLOURS.solid : COLOURS.hatched}
		/>
	)
}

/**
 * Periods along the bottom, one bar per bar series in each (solid, then hatched) and a line per line
 * series; zero is drawn when values go below it. Tick labels thin out when periods are many.
 */
export function ColumnChart({
	title,
	description,
	categories,
	series,
	formatValue,
	wholeNumbers = false,
}: {
	title: string
	description: string
	/** Counts: no tick between whole numbers. */
	wholeNumbers?: boolean
	/** The periods in order: a unique key and the short label under the bars. */
	categories: Array<{ key: string; tick: string }>
	series: ColumnSeries[]
	formatValue: (value: number) => string
}) {
	const ids = useChartIds()
	const legendHeight = series.length > 1 ? 24 : 0
	const width = Math.max(560, MARGIN.left + MARGIN.right + categories.length * 36)
	const height = 260 + legendHeight
	const top = MARGIN.top + legendHeight
	const bottom = height - MARGIN.bottom
	const values = series.flatMap((entry) => entry.values)
	const y = scaleLinear()
		.domain([Math.min(0, ...values), Math.max(1, ...values)])
		.nice()
		.range([bottom, top])
	const x = scaleBand<number>()
		.domain(categories.map((_, index) => index))
		.range([MARGIN.left, width - MARGIN.right])
		.paddingInner(0.25)
		.paddingOuter(0.1)
	const ticks = y.ticks(5).filter((tick) => !wholeNumbers || Number.isInteger(tick))
	const bars = series.filter((entry) => entry.mark !== 'line')
	const lines = series.filter((entry) => entry.mark === 'line')
	const barBand = scaleBand<number>()
		.domain(bars.map((_, index) => index))
		.range([0, x.bandwidth()])
		.paddingInner(0.1)
	const labelEvery = Math.max(1, Math.ceil((categories.length * 64) / (width - MARGIN.left - MARGIN.right)))
	const centre = (index: number) => (x(index) ?? 0) + x.bandwidth() / 2
	const path = line<number>()
		.x((_, index) => centre(index))
		.y((value) => y(value))
	return (
		<ChartFrame width={width} height={height} title={title} description={description} ids={ids}>
			{series.length > 1 ? (
				<g transform={`translate(${MARGIN.left},4)`}>
					{series.map((entry, index) => (
						<g key={entry.name} transform={`translate(${index * 140},0)`}>
							<LegendMark mark={entry.mark} hatch={ids.hatch} />
							<Label x={24} y={11} fill={COLOURS.line}>
								{entry.name}
							</Label>
						</g>
					))}
				</g>
			) : null}
			{ticks.map((tick) => (
				<g key={tick}>
					<line x1={MARGIN.left} x2={width - MARGIN.right} y1={y(tick)} y2={y(tick)} stroke={tick === 0 ? COLOURS.axis : COLOURS.grid} />
					<Label x={MARGIN.left - 6} y={y(tick)} dy="0.32em" textAnchor="end" fill={COLOURS.axis}>
						{formatValue(tick)}
					</Label>
				</g>
			))}
			{categories.map((category, index) => (
				<g key={category.key}>
					{bars.map((entry, barIndex) => {
						const value = entry.values[index] ?? 0
						return (
							<rect
								key={entry.name}
								x={(x(index) ?? 0) + (barBand(barIndex) ?? 0)}
								y={Math.min(y(value), y(0))}
								width={barBand.bandwidth()}
								height={Math.abs(y(0) - y(value))}
								fill={entry.mark === 'solid' ? COLOURS.solid : `url(#${ids.hatch})`}
								stroke={entry.mark === 'solid' ? COLOURS.solid : COLOURS.hatched}
							/>
						)
					})}
					{index % labelEvery === 0 ? (
						<Label x={centre(index)} y={bottom + 18} textAnchor="middle" fill={COLOURS.axis}>
							{category.tick}
						</Label>
					) : null}
				</g>
			))}
			{lines.map((entry) => (
				<g key={entry.name}>
					<path d={path(entry.values) ?? ''} fill="none" stroke={COLOURS.line} strokeWidth={2} strokeDasharray="4 3" />
					{entry.values.map((value, index) => (
						// biome-ignore lint/suspicious/noArrayIndexKey: a point is its period's, in the order of the periods
						<circle key={index} cx={centre(index)} cy={y(value)} r={3.5} fill="#fff" stroke={COLOURS.line} strokeWidth={2} />
					))}
				</g>
			))}
		</ChartFrame>
	)
}

export type CapacityRow = { label: string; taken: number; capacity: number }

/**
 * One row per course: the capacity as an outlined bar, the seats taken as a solid bar inside it,
 * and both numbers written after it ("8 of 10").
 */
export function CapacityChart({ title, description, rows }: { title: string; description: string; rows: CapacityRow[] }) {
	const ids = useChartIds()
	const labelWidth = 200
	const width = 640
	const rowHeight = 28
	const height = MARGIN.top + rows.length * rowHeight + 8
	const x = scaleLinear()
		.domain([0, Math.max(1, ...rows.map((row) => Math.max(row.capacity, row.taken)))])
		.range([labelWidth, width - 96])
	const y = scaleBand<number>()
		.domain(rows.map((_, index) => index))
		.range([MARGIN.top, height - 8])
		.paddingInner(0.3)
	return (
		<ChartFrame width={width} height={height} title={title} description={description} ids={ids}>
			{rows.map((row, index) => {
				const top = y(index) ?? 0
				return (
					// biome-ignore lint/suspicious/noArrayIndexKey: rows are the courses in the table's order; titles may repeat
					<g key={index}>
						<Label x={labelWidth - 8} y={top + y.bandwidth() / 2} dy="0.32em" textAnchor="end" fill={COLOURS.line}>
							{row.label.length > 28 ? `${row.label.slice(0, 27)}…` : row.label}
						</Label>
						<rect x={x(0)} y={top} width={x(row.capacity) - x(0)} height={y.bandwidth()} fill="#fff" stroke={COLOURS.axis} />
						<rect x={x(0)} y={top + 3} width={x(row.taken) - x(0)} height={y.bandwidth() - 6} fill={COLOURS.solid} />
						<Label x={x(Math.max(row.capacity, row.taken)) + 6} y={top + y.bandwidth() / 2} dy="0.32em" fill={COLOURS.line}>
							{row.taken} of {row.capacity}
						</Label>
					</g>
				)
			})}
		</ChartFrame>
	)
}
