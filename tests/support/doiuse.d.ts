/** doiuse ships its declarations outside its `exports` map: the part the stylesheet test uses. */
declare module 'doiuse' {
	import type { PluginCreator } from 'postcss'

	export type FeatureUsage = {
		feature: string
		message: string
		/** Browser → version → support code, for the listed browsers that lack the feature. */
		featureData: { missingData?: Record<string, Record<string, string>> }
	}
	const doiuse: PluginCreator<{ browsers: string[]; ignore?: string[]; onFeatureUsage: (usage: FeatureUsage) => void }>
	export default doiuse
}
