"""Plotly figures for the pages, on one shared base (axes, log-scale rule, colours, number formats)."""
