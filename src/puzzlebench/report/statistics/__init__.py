"""The report's statistics, apart from rendering: the stratified test, claims, power,
scores, scaling models, anytime numbers, quality."""
