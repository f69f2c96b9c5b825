import { Form } from 'react-router'
import { CANCEL_CHECKOUT_INTENT } from '#app/models/payments/checkout.ts'
import { Button } from './ui/button.tsx'

/**
 * Ends the buyer's open checkout for a course (docs/decisions/040): the held spot and any
 * promotion code it reserved are given back, so the buyer can start again (another code, say).
 */
export function CancelCheckoutForm({ action, className }: { action: string; className?: string }) {
	return (
		<Form method="post" action={action} className={className}>
			<input type="hidden" name="intent" value={CANCEL_CHECKOUT_INTENT} />
			<Button type="submit" variant="outline" className="w-full">
				Cancel Checkout and Release My Spot
			</Button>
		</Form>
	)
}
