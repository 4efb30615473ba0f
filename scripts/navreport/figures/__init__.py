"""How the report draws (draw.py: one description, plotly and matplotlib) and the answer's charts (pareto.py, budget.py)."""
