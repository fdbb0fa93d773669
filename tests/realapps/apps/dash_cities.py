"""A small Dash 4 app for the realapp tests (run by tests/realapps/pyenv's Python, where Dash is installed; not
phonewire's environment): two tabs, a city dropdown, a button whose callback writes a line, a DataTable with sorting
and filtering, and a plotly bar chart.  Its port comes as the first argument; it serves on loopback only."""

import sys

from dash import Dash, Input, Output, State, dash_table, dcc, html

CITIES = [
    {"city": "Tokyo", "country": "Japan", "population": 37},
    {"city": "Delhi", "country": "India", "population": 32},
    {"city": "Shanghai", "country": "China", "population": 29},
    {"city": "Cairo", "country": "Egypt", "population": 22},
    {"city": "Lagos", "country": "Nigeria", "population": 16},
]

app = Dash(__name__)
app.layout = html.Div(
    [
        html.H1("Cities"),
        dcc.Tabs(
            id="tabs",
            value="pick",
            children=[
                dcc.Tab(
                    label="Pick",
                    value="pick",
                    children=[
                        html.Div("Choose a city, then greet it."),
                        dcc.Dropdown(
                            id="city",
                            options=[c["city"] for c in CITIES],
                            placeholder="Select a city",
                            clearable=False,
                        ),
                        html.Button("Greet", id="greet", n_clicks=0),
                        html.Div("No greeting yet", id="greeting"),
                    ],
                ),
                dcc.Tab(
                    label="Table",
                    value="table",
                    children=[
                        dash_table.DataTable(
                            id="table",
                            data=CITIES,
                            columns=[{"name": n.title(), "id": n} for n in ("city", "country", "population")],
                            sort_action="native",
                            filter_action="native",
                        ),
                        dcc.Graph(
                            id="chart",
                            figure={
                                "data": [
                                    {
                                        "type": "bar",
                                        "x": [c["city"] for c in CITIES],
                                        "y": [c["population"] for c in CITIES],
                                        "name": "Population",
                                    },
                                ],
                                "layout": {"title": {"text": "Population (millions)"}, "height": 300},
                            },
                        ),
                    ],
                ),
            ],
        ),
    ]
)


@app.callback(Output("greeting", "children"), Input("greet", "n_clicks"), State("city", "value"))
def greet(clicks: int, city: str | None) -> str:
    if not clicks:
        return "No greeting yet"
    return f"Hello, {city}! ({clicks})" if city else f"Pick a city first ({clicks})"


if __name__ == "__main__":
    app.run(host="127.0.0.1", port=int(sys.argv[1]), debug=False)
