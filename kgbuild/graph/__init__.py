"""The built graph in memory and the pure graph steps the graph strategies share."""
