"""A small Gradio Blocks app for docs/realapps-findings-4.md: a textbox, a dropdown, a radio, a slider, a submit
button that updates an output, a tab set and a dataframe.

Served by setup_round4.sh: `venv/bin/python gradio_quotes.py PORT`.
"""

import sys

import gradio as gr

ROWS = [["Ada", "Tea", "small", 2]]


def quote(name: str, product: str, size: str, quantity: float):
    if not name:
        return "Enter a name first", ROWS
    ROWS.append([name, product, size, int(quantity)])
    return f"Quote for {name}: {int(quantity)} x {size} {product}", ROWS


with gr.Blocks(title="Quotes") as demo:
    gr.Markdown("# Quotes")
    with gr.Tabs():
        with gr.Tab("Order"):
            name = gr.Textbox(label="Name", placeholder="Your name")
            product = gr.Dropdown(["Tea", "Coffee", "Cocoa", "Juice"], value="Tea", label="Product")
            size = gr.Radio(["small", "medium", "large"], value="small", label="Size")
            quantity = gr.Slider(1, 10, value=1, step=1, label="Quantity")
            submit = gr.Button("Submit", variant="primary")
            result = gr.Textbox(label="Result", interactive=False)
        with gr.Tab("Orders"):
            table = gr.Dataframe(
                value=ROWS, headers=["name", "product", "size", "quantity"], label="Orders", interactive=False
            )
        with gr.Tab("About"):
            gr.Markdown("Quotes are free. Prices are made up.")
    submit.click(quote, [name, product, size, quantity], [result, table])

if __name__ == "__main__":
    demo.launch(server_name="127.0.0.1", server_port=int(sys.argv[1]) if len(sys.argv) > 1 else 8752)
